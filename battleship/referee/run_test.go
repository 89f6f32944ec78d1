package referee

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
)

// slowBot serves the engine in-process over HTTP, each answer after delay.
func slowBot(t *testing.T, delay time.Duration) *httptest.Server {
	t.Helper()
	self, err := agents.New("self")
	if err != nil {
		t.Fatal(err)
	}
	p := newAgentPlayer(self, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		time.Sleep(delay)
		out, err := p.call(r.Context(), body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestTimeout: the arena's limit on an exchange is a parameter, so that it
// can be tested without depending on the machine's speed: a bot answering
// after 20 ms loses to a 1 ms limit and plays under a 10 min one.
func TestTimeout(t *testing.T) {
	c := TargetConfig{Setup: Setup{Games: 1, Concurrency: 1, Seed: 1, Rules: battleship.Rules{W: 3, H: 3, Fleet: battleship.Fleet{0, 1, 1}}},
		Hidden: "uniform"}
	for _, tt := range []struct {
		limit time.Duration
		wins  int
	}{{time.Millisecond, 0}, {10 * time.Minute, 1}} {
		// A bot of its own each time: the answer the first run gave up on
		// is still being computed when the second run asks the same game.
		c.Bot = slowBot(t, 20*time.Millisecond).URL
		c.Timeout = tt.limit
		rep, err := Target(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Wins != tt.wins || rep.Invalid != 1-tt.wins {
			t.Errorf("limit %v: %d wins, %d invalid %v", tt.limit, rep.Wins, rep.Invalid, rep.InvalidWhy)
		}
		if tt.wins == 0 && (len(rep.InvalidWhy) != 1 || !strings.Contains(rep.InvalidWhy[0], "play-turn")) {
			t.Errorf("invalid answers %q", rep.InvalidWhy)
		}
	}
}

// TestRunDuelInproc: a seed plays the same games at any concurrency with
// players that learn nothing, seats alternate, and only in-process players
// take part.
func TestRunDuelInproc(t *testing.T) {
	c := DuelInprocConfig{Setup: Setup{Games: 8, Seed: 4, Rules: battleship.Rules{W: 6, H: 6, Fleet: battleship.Fleet{0, 0, 1, 1}}},
		Bot: "dg", Opponent: "dreadnought-static"}
	var reps [2]*Report
	for i, n := range []int{1, 3} {
		c.Concurrency = n
		rep, err := DuelInproc(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		reps[i] = rep
	}
	a, b := reps[0], reps[1]
	if a.Games != 8 || a.SeatGames != [2]int{4, 4} || a.Wins+a.Losses != 8 || a.Invalid != 0 {
		t.Errorf("report %+v", a)
	}
	if a.Wins != b.Wins || a.SeatWins != b.SeatWins || *a.Shots != *b.Shots {
		t.Errorf("concurrency changed the games: %+v %+v, %+v %+v", a, a.Shots, b, b.Shots)
	}
	c.Bot = "http://127.0.0.1:1/battleship"
	if _, err := DuelInproc(t.Context(), c); !errors.Is(err, errNotInproc) {
		t.Errorf("a URL in duel-inproc: %v", err)
	}
}
