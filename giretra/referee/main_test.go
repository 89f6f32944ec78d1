package referee

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
)

// TestMain doubles as a bot server process for the folder-launch tests:
// with GIRETRA_REF_TESTBOT set, the test binary serves a test bot on
// PORT.
func TestMain(m *testing.M) {
	if os.Getenv("GIRETRA_REF_TESTBOT") != "" {
		refereetest.Serve()
		return
	}
	os.Exit(m.Run())
}

// setup is giretra-ref's defaults: seed 1 (not sent to bots), decks from
// the seed, one match at a time, the engine's dialect, no bots folder.
func setup(t *testing.T) Setup {
	return Setup{Target: 151, Seed: 1, Shuffle: true, Seats: "team1", Concurrency: 1,
		Registry: players.NewRegistry(t.TempDir(), func(msg string) { t.Errorf("registry: %s", msg) })}
}

// validation is a validation of the bot at url against random with
// giretra-ref's defaults, matches long, seeded with seed.
func validation(t *testing.T, url string, matches int, seed int64) ValidateConfig {
	c := ValidateConfig{Setup: setup(t), Bot: url, Opponent: "random", Matches: matches}
	c.Seed, c.Seeded = seed, true
	return c
}

// serve starts bot; the server stops with the test.
func serve(t *testing.T, bot *refereetest.Bot) string {
	srv := httptest.NewServer(bot)
	t.Cleanup(srv.Close)
	return srv.URL
}
