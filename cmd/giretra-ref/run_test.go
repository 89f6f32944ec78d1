package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
	"github.com/botarena/gamebot/internal/cli"
)

// The referee's own behaviour is tested beside it (giretra/referee); these
// tests are of the command line: flags, output and exit statuses.

// TestMain doubles as a bot server process for the tests that launch
// bots from folders: with GIRETRA_REF_TESTBOT set, the test binary serves
// a test bot on PORT.
func TestMain(m *testing.M) {
	if os.Getenv("GIRETRA_REF_TESTBOT") != "" {
		refereetest.Serve()
		return
	}
	os.Exit(m.Run())
}

// runRef runs the command and returns stdout, stderr and the error.
func runRef(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(t.Context(), args, cli.Env(nil), nil, &out, &errb)
	return out.String(), errb.String(), err
}

// serveBot starts a test bot playing agent; the server stops with the test.
func serveBot(t *testing.T, bot *refereetest.Bot) string {
	srv := httptest.NewServer(bot)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"bogus"}, {"validate"}, {"validate", "a", "b"}, {"benchmark", "eva", "random", "eva"},
		{"validate", "NoSuchAgent"}, {"compare", "-baseline", "eva"}, {"show"}, {"report"},
		{"validate", "-seats", "middle", "eva"}, {"validate", "-dialect", "x", "eva"},
		{"validate", "/no/such/folder"}, {"validate", "-n", "0", "eva"}, {"compare", "-margin", "1", "-baseline", "eva", "-candidate", "eva"},
		{"validate", "-notify", "deal-started,card-playd", "eva"}, {"losses", "one-folder"},
	} {
		_, _, err := runRef(t, args...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.HasSuffix(err.Error(), "(see giretra-ref help)") || cli.Code("giretra-ref", err, &bytes.Buffer{}, cli.Status{Err: errFailed, Code: 1}, cli.Status{Code: 2}) != 2 {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
	if _, _, err := runRef(t, "validate", "-notify", "deal-started,card-playd", "eva"); err == nil || !strings.Contains(err.Error(), `"card-playd"`) {
		t.Errorf("-notify with a misspelt notification: %v", err)
	}
	if out, _, err := runRef(t, "help"); err != nil || !strings.Contains(out, "swiss") {
		t.Errorf("help: %v %q", err, out)
	}
}

// The seed rule shared by every command: 1 by default, -seed 0 draws one
// and prints it. Session seeds go to bots only when -seed is given, as the
// engine sends them only in seeded runs.
func TestSeedRule(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantSeed int64 // 0: drawn at random
		sent     bool
	}{
		{"default", nil, 1, false},
		{"given", []string{"-seed", "17"}, 17, true},
		{"drawn", []string{"-seed", "0"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bot := refereetest.NewBot("random")
			out, stderr, err := runRef(t, append([]string{"validate", "-json", "-n", "1"}, append(tt.args, serveBot(t, bot))...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			var rep referee.ValidateReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			drawn := strings.Contains(stderr, fmt.Sprintf("giretra-ref: seed %d\n", rep.Seed))
			if tt.wantSeed != 0 && (rep.Seed != tt.wantSeed || drawn) || tt.wantSeed == 0 && (rep.Seed <= 0 || !drawn) {
				t.Errorf("seed %d, stderr %q; want %d", rep.Seed, stderr, tt.wantSeed)
			}
			for i, c := range bot.Creates {
				seed, has := c["seed"]
				if has != tt.sent || has && seed != float64(rep.Seed+int64(i)) {
					t.Errorf("session %d: %v, want a seed sent: %v", i, c, tt.sent)
				}
			}
		})
	}
}

// The exit statuses: 1 (errFailed) when the run fails what it checks,
// the interrupt (2) when a signal cuts it short, with the report printed
// in every case.
func TestExitStatus(t *testing.T) {
	cardNotOffered := func(e string, s *refereetest.Session, n int) (int, string, bool) {
		if e == "choose-card" {
			return 200, `{"rank":"Seven","suit":"Clubs"}`, true
		}
		return 0, "", false
	}
	tests := []struct {
		name      string
		args      []string
		fault     func(string, *refereetest.Session, int) (int, string, bool) // for the bot at BOT
		cancelled bool
		want      error // nil, errFailed or context.Canceled
		wantOut   string
	}{
		{"validate passes", []string{"validate", "-n", "1", "BOT"}, nil, false, nil, "\nPASS\n"},
		{"validate fails", []string{"validate", "-n", "1", "BOT"}, cardNotOffered, false, errFailed, "\nFAIL: 0 violations, 1 crashed matches"},
		{"benchmark aborted", []string{"benchmark", "-n", "2", "-t", "151", "BOT", "eva"}, cardNotOffered, false, errFailed, "ABORTED (the engine aborts a benchmark on any error)"},
		{"compare worse", []string{"compare", "-t", "151", "-n", "60", "-baseline", "eva", "-candidate", "random"}, nil, false, errFailed, "WORSE: "},
		{"compare better", []string{"compare", "-t", "151", "-n", "60", "-baseline", "random", "-candidate", "eva"}, nil, false, nil, "BETTER: "},
		{"swiss of one", []string{"swiss", "eva"}, nil, false, errFailed, "Error: At least 2 agent factories are required for a Swiss tournament.\nAvailable: BadPlayer (Sakabelou), "},
		{"validate interrupted", []string{"validate", "-n", "2", "eva"}, nil, true, context.Canceled, "\nINTERRUPTED after 0 of 2 matches\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bot := refereetest.NewBot("random")
			bot.Fault = tt.fault
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.ReplaceAll(a, "BOT", serveBot(t, bot))
			}
			ctx, cancel := context.WithCancel(t.Context())
			if tt.cancelled {
				cancel()
			}
			defer cancel()
			var out, errb bytes.Buffer
			err := run(ctx, args, cli.Env(nil), nil, &out, &errb)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err %v, want %v", err, tt.want)
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("output lacks %q:\n%s", tt.wantOut, out.String())
			}
		})
	}
}

// The text reports and their -json forms.
func TestReports(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"benchmark", "-n", "4", "-seed", "2", "-target", "151", "-sweep", "0", "calculating", "random"},
			[]string{"Benchmark calculating vs random\n", "Colour sweep wins the match", "(Wilson 95%)", "Announcer win rate", "\nAnnouncer win rate\nmode "}},
		{[]string{"benchmark", "-n", "4", "-duplicate", "-seed", "3", "eva", "random"},
			[]string{"Duplicate  2 deal sequences", "seats alternate"}},
		{[]string{"swiss", "random", "eva", "-r", "2", "-t", "151"},
			[]string{"Swiss tournament: random, eva\n  2 rounds, target 151, initial Elo 1200", "Round   1: ", "Elo range", "Adjusted Elo (RandomPlayer = 1000)"}},
		{[]string{"validate", "-n", "2", "-opponent", "eva", "calculating"},
			[]string{"Validation of calculating against eva\n", "Response times (ms)", "Game modes covered", "\nPASS\n"}},
		{[]string{"compare", "-n", "2", "-min", "2", "-t", "151", "-baseline", "eva", "-candidate", "eva", "random"},
			[]string{"Compare eva [candidate] (candidate) with eva [baseline] (baseline), against random", "Sequential   log LR better", "INCONCLUSIVE"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:1], ""), func(t *testing.T) {
			out, stderr, err := runRef(t, tt.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("%v: output lacks %q:\n%s", tt.args, w, out)
				}
			}
			js, _, err := runRef(t, append(tt.args, "-json")...)
			var v map[string]any
			if jerr := json.Unmarshal([]byte(js), &v); err != nil || jerr != nil {
				t.Errorf("-json: %v, %v:\n%s", err, jerr, js)
			}
		})
	}
}
