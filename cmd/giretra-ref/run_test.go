package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/internal/cli"
)

// runRef runs the command and returns stdout, stderr and the error.
func runRef(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(t.Context(), args, cli.Env(nil), nil, &out, &errb)
	return out.String(), errb.String(), err
}

func validateJSON(t *testing.T, args ...string) (*referee.ValidateReport, error) {
	t.Helper()
	out, stderr, err := runRef(t, append([]string{"validate", "-json", "-no-progress"}, args...)...)
	var rep referee.ValidateReport
	if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil {
		t.Fatalf("report is not JSON (%v): %q; stderr %s; err %v", jerr, out, stderr, err)
	}
	return &rep, err
}

func TestValidateHTTPBotPasses(t *testing.T) {
	bot := newTestBot("calculating")
	srv := httptest.NewServer(bot)
	defer srv.Close()
	rep, err := validateJSON(t, "-n", "4", "-seed", "17", srv.URL)
	if err != nil {
		t.Fatalf("validate: %v (%+v)", err, rep)
	}
	if !rep.Pass || rep.Completed != 4 || rep.Crashed != 0 || len(rep.Violations) != 0 {
		t.Errorf("report = %+v", rep)
	}
	if rep.Opponent != "random" || rep.Target != 151 {
		t.Errorf("defaults: opponent %q target %d", rep.Opponent, rep.Target)
	}
	for _, s := range rep.Timing {
		if s.Kind != "Cut" && s.Count == 0 {
			t.Errorf("no %s timings", s.Kind)
		}
	}
	if len(bot.problems) > 0 {
		t.Errorf("protocol problems: %q", bot.problems)
	}
	// Two sessions per match, Bottom then Top, seeds 17.. in creation order,
	// one matchId for the whole run; no DELETE for game sessions.
	if len(bot.creates) != 8 {
		t.Fatalf("%d sessions created, want 8", len(bot.creates))
	}
	ids := map[any]bool{}
	for i, c := range bot.creates {
		want := []string{"Bottom", "Top"}[i%2]
		if c["position"] != want || c["seed"] != float64(17+i) {
			t.Errorf("session %d: %v, want position %s seed %d", i, c, want, 17+i)
		}
		ids[c["matchId"]] = true
	}
	if len(ids) != 1 {
		t.Errorf("matchIds: %v, want one", ids)
	}
	if bot.deletes != 0 { // no smoke test for URLs, no DELETE of game sessions
		t.Errorf("%d DELETEs", bot.deletes)
	}
	if len(bot.conns) > 2 {
		t.Errorf("%d connections for a sequential run: no keep-alive?", len(bot.conns))
	}
	checkCallOrder(t, bot)
}

// checkCallOrder checks each session's calls: deal-started opens each deal
// (the session is created by it), choose-cut only right after it,
// negotiation-completed after the bids, card-played after every card, and
// match-ended last.
func checkCallOrder(t *testing.T, bot *testBot) {
	t.Helper()
	for _, id := range bot.order {
		calls := bot.sessions[id].calls
		if len(calls) == 0 || calls[0] != "notify/deal-started" {
			t.Errorf("%s: first call %v, want deal-started", id, calls[:min(1, len(calls))])
			continue
		}
		if calls[len(calls)-1] != "notify/match-ended" {
			t.Errorf("%s: last call %s", id, calls[len(calls)-1])
		}
		deals, played := 0, 0
		for i, c := range calls {
			switch c {
			case "notify/deal-started":
				deals++
			case "choose-cut":
				if calls[i-1] != "notify/deal-started" {
					t.Errorf("%s: choose-cut after %s", id, calls[i-1])
				}
			case "choose-card":
				if calls[i+1] != "notify/card-played" {
					t.Errorf("%s: choose-card followed by %s", id, calls[i+1])
				}
			case "notify/card-played":
				played++
			}
		}
		if played != 32*deals {
			t.Errorf("%s: %d card-played over %d deals", id, played, deals)
		}
	}
}

func TestValidateNotificationSubsets(t *testing.T) {
	for _, tc := range []struct {
		notify string
		want   []string // the only notifications allowed
	}{
		{"none", nil},
		{"card-played,Deal-Ended", []string{"notify/card-played", "notify/deal-ended"}},
	} {
		t.Run(tc.notify, func(t *testing.T) {
			bot := newTestBot("random")
			srv := httptest.NewServer(bot)
			defer srv.Close()
			if _, err := validateJSON(t, "-n", "2", "-seed", "3", "-notify", tc.notify, srv.URL); err != nil {
				t.Fatal(err)
			}
			for _, id := range bot.order {
				calls := bot.sessions[id].calls
				if strings.HasPrefix(calls[0], "notify/") {
					t.Errorf("%s: session created by %s, want the first decision", id, calls[0])
				}
				for _, c := range calls {
					if strings.HasPrefix(c, "notify/") && !slices.Contains(tc.want, c) {
						t.Errorf("%s: got %s", id, c)
					}
				}
			}
		})
	}
}

func TestValidateFailures(t *testing.T) {
	tests := []struct {
		name      string
		fault     func(endpoint string, s *botSession, n int) (int, string, bool)
		args      []string
		wantViol  bool
		wantCrash string
		wantWarn  bool
	}{
		{name: "card not offered", fault: func(e string, s *botSession, n int) (int, string, bool) {
			if e == "choose-card" {
				return 200, `{"rank":"seven","suit":"CLUBS"}`, true
			}
			return 0, "", false
		}, wantCrash: "not among the offered options"},
		{name: "trailing data", fault: func(e string, s *botSession, n int) (int, string, bool) {
			if e == "choose-cut" {
				return 200, `{"position":10,"fromTop":true}{}`, true
			}
			return 0, "", false
		}, wantCrash: "not a JSON object"},
		{name: "cut out of range", fault: func(e string, s *botSession, n int) (int, string, bool) {
			if e == "choose-cut" {
				return 200, `{"position":3,"fromTop":true}`, true
			}
			return 0, "", false
		}, wantViol: true, wantCrash: "outside 6..26"},
		{name: "lower-case property", fault: func(e string, s *botSession, n int) (int, string, bool) {
			if e == "choose-negotiation-action" {
				return 200, `{"Type":"Accept"}`, true
			}
			return 0, "", false
		}, wantCrash: "matches no offered action"},
		{name: "server error", fault: func(e string, s *botSession, n int) (int, string, bool) {
			if e == "choose-negotiation-action" {
				return 500, "boom", true
			}
			return 0, "", false
		}, wantCrash: "HTTP 500"},
		{name: "notifications fail", fault: func(e string, s *botSession, n int) (int, string, bool) {
			if e == "notify/trick-completed" {
				return 503, "", true
			}
			return 0, "", false
		}, wantWarn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bot := newTestBot("random")
			bot.fault = tc.fault
			srv := httptest.NewServer(bot)
			defer srv.Close()
			rep, err := validateJSON(t, append([]string{"-n", "2", "-seed", "5", srv.URL}, tc.args...)...)
			if tc.wantCrash == "" {
				if err != nil || !rep.Pass {
					t.Fatalf("err %v, report %+v", err, rep)
				}
			} else {
				if !errors.Is(err, referee.ErrFailed) || rep.Pass || rep.Crashed == 0 {
					t.Fatalf("err %v, report %+v", err, rep)
				}
				if !strings.Contains(rep.Crashes[0], tc.wantCrash) {
					t.Errorf("crash %q, want %q", rep.Crashes[0], tc.wantCrash)
				}
			}
			if got := len(rep.Violations) > 0; got != tc.wantViol {
				t.Errorf("violations %v", rep.Violations)
			}
			if got := len(rep.NotificationWarnings) > 0; got != tc.wantWarn {
				t.Errorf("warnings %v", rep.NotificationWarnings)
			}
		})
	}
}

func TestValidateTimeouts(t *testing.T) {
	bot := newTestBot("random")
	bot.delay = 12 * time.Millisecond // per decision
	srv := httptest.NewServer(bot)
	defer srv.Close()
	// A decision time limit makes slow decisions violations.
	rep, err := validateJSON(t, "-n", "1", "-seed", "1", "-timeout", "5", srv.URL)
	if !errors.Is(err, referee.ErrFailed) || len(rep.Violations) == 0 || rep.Crashed != 0 {
		t.Errorf("err %v, %d violations, %d crashes", err, len(rep.Violations), rep.Crashed)
	}
	// The HTTP decision timeout makes it a crash.
	rep, err = validateJSON(t, "-n", "1", "-seed", "1", "-decision-timeout", "3ms", srv.URL)
	if !errors.Is(err, referee.ErrFailed) || rep.Crashed != 1 || !strings.Contains(rep.Crashes[0], "timed out") {
		t.Errorf("err %v, crashes %q", err, rep.Crashes)
	}
}

func TestValidateSeedDialect(t *testing.T) {
	bot := newTestBot("eva")
	srv := httptest.NewServer(bot)
	defer srv.Close()
	rep, err := validateJSON(t, "-n", "2", "-seed", "9", "-dialect", "seed", srv.URL)
	if err != nil || !rep.Pass {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	for _, c := range bot.creates {
		if _, has := c["position"]; has {
			t.Errorf("seed dialect create body %v has a position", c)
		}
	}
	for _, id := range bot.order {
		if slices.Contains(bot.sessions[id].calls, "notify/negotiation-completed") {
			t.Errorf("seed dialect sent negotiation-completed")
		}
	}
	if len(bot.problems) > 0 {
		t.Errorf("problems: %q", bot.problems)
	}
}

func TestValidateConcurrentSessionsAreIsolated(t *testing.T) {
	bot := newTestBot("calculating")
	srv := httptest.NewServer(bot)
	defer srv.Close()
	rep, err := validateJSON(t, "-n", "4", "-seed", "11", "-concurrency", "3", "-opponent", "random", "-seats", "alternate", srv.URL)
	if err != nil || !rep.Pass || rep.Completed != 4 {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	if len(bot.order) != 8 {
		t.Errorf("%d sessions, want 8", len(bot.order))
	}
	// Odd matches put the bot at Team2: Left and Right sessions.
	seats := map[giretra.Position]int{}
	for _, id := range bot.order {
		seats[bot.sessions[id].seat]++
	}
	if seats[giretra.Left] != 2 || seats[giretra.Bottom] != 2 || seats[giretra.Top] != 2 || seats[giretra.Right] != 2 {
		t.Errorf("seats %v", seats)
	}
}

func TestValidateIsReproducible(t *testing.T) {
	// In-process agents under test: same seed, same report.
	var outs [2]string
	for i := range outs {
		out, _, err := runRef(t, "validate", "-n", "5", "-seed", "4", "-opponent", "calculating", "-json", "eva")
		if err != nil {
			t.Fatal(err)
		}
		var rep referee.ValidateReport
		_ = json.Unmarshal([]byte(out), &rep)
		outs[i] = fmt.Sprint(rep.BotWins, rep.Deals, rep.ModesCovered)
	}
	if outs[0] != outs[1] {
		t.Errorf("runs differ: %s / %s", outs[0], outs[1])
	}
}

func TestBenchmarkAgents(t *testing.T) {
	out, _, err := runRef(t, "benchmark", "-n", "20", "-seed", "2", "-seats", "alternate", "-json", "eva", "random")
	if err != nil {
		t.Fatal(err)
	}
	var rep referee.BenchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Played != 20 || rep.AWins+rep.BWins != 20 || rep.Target != 500 || rep.Sweep != 25 {
		t.Errorf("report %+v", rep)
	}
	if rep.AWins < 15 {
		t.Errorf("eva won %d/20 against random", rep.AWins)
	}
	if rep.AdjustedEloB == nil || math.Abs(*rep.AdjustedEloB-1000) > 1e-9 {
		t.Errorf("adjusted Elo of random: %v", rep.AdjustedEloB)
	}
	if rep.AMatchesAsTeam1 != 10 {
		t.Errorf("alternate seats: %d matches as Team1", rep.AMatchesAsTeam1)
	}
	// The text report.
	text, _, err := runRef(t, "benchmark", "-n", "4", "-seed", "2", "-target", "151", "-sweep", "0", "calculating", "random")
	if err != nil || !strings.Contains(text, "Wilson 95%") || !strings.Contains(text, "Announcer win rate") {
		t.Errorf("err %v, text:\n%s", err, text)
	}
}

func TestBenchmarkBotVsBotAborts(t *testing.T) {
	good := newTestBot("eva")
	bad := newTestBot("random")
	bad.fault = func(e string, s *botSession, n int) (int, string, bool) {
		if e == "choose-card" && n > 40 {
			return 200, `{"rank":"Jack"}`, true
		}
		return 0, "", false
	}
	s1, s2 := httptest.NewServer(good), httptest.NewServer(bad)
	defer s1.Close()
	defer s2.Close()
	out, _, err := runRef(t, "benchmark", "-n", "3", "-seed", "1", "-target", "151", "-json", "-concurrency", "2", s1.URL, s2.URL)
	var rep referee.BenchReport
	_ = json.Unmarshal([]byte(out), &rep)
	if !errors.Is(err, referee.ErrFailed) || rep.Aborted == "" {
		t.Errorf("err %v, aborted %q", err, rep.Aborted)
	}
	// Healthy bot vs bot. The aborted run may leave a request in flight.
	bad.mu.Lock()
	bad.fault = nil
	bad.mu.Unlock()
	out, _, err = runRef(t, "benchmark", "-n", "2", "-seed", "1", "-target", "151", "-json", s1.URL, s2.URL)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"bogus"}, {"validate"}, {"validate", "a", "b"}, {"benchmark", "eva", "random", "eva"},
		{"validate", "NoSuchAgent"}, {"compare", "-baseline", "eva"}, {"show"}, {"report"},
		{"validate", "-seats", "middle", "eva"}, {"validate", "-dialect", "x", "eva"},
		{"validate", "/no/such/folder"},
	} {
		_, _, err := runRef(t, args...)
		if err == nil || errors.Is(err, referee.ErrFailed) {
			t.Errorf("%v: err %v, want a usage error", args, err)
		}
	}
	if out, _, err := runRef(t, "help"); err != nil || !strings.Contains(out, "swiss") {
		t.Errorf("help: %v %q", err, out)
	}
}

// TestMain doubles as a bot server process for the folder-launch test:
// with GIRETRA_REF_TESTBOT set, the test binary serves a testBot on PORT.
func TestMain(m *testing.M) {
	if os.Getenv("GIRETRA_REF_TESTBOT") != "" {
		serveTestBot()
		return
	}
	os.Exit(m.Run())
}

func TestValidateFolderBot(t *testing.T) {
	if testing.Short() {
		t.Skip("launches a process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	meta := map[string]any{
		"name":          "folderbot",
		"notifications": []string{"deal-started", "negotiation-completed"},
		"init":          map[string]any{"command": "sh", "arguments": `-c "echo ready > init.done"`},
		"launch": map[string]any{
			"fileName":             exe,
			"startupTimeout":       20,
			"environmentVariables": map[string]string{"GIRETRA_REF_TESTBOT": "1", "TESTBOT_DIR": dir},
		},
	}
	js, _ := json.Marshal(meta)
	if err := os.WriteFile(filepath.Join(dir, "bot.meta.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := validateJSON(t, "-n", "2", "-seed", "17", dir)
	if err != nil || !rep.Pass || rep.Bot != "folderbot" {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	if _, err := os.Stat(filepath.Join(dir, "init.done")); err != nil {
		t.Errorf("init command did not run: %v", err)
	}
	// The bot wrote what it saw at exit? It is killed; it logs as it goes.
	log, _ := os.ReadFile(filepath.Join(dir, "bot.log"))
	for _, want := range []string{"LAUNCHER_PID ok", "smoke create", "smoke delete", "notify/deal-started", "notify/negotiation-completed"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("bot log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(string(log), "notify/card-played") {
		t.Error("card-played sent although bot.meta.json does not list it")
	}
	// A failing launch is an infrastructure error (exit status 2).
	bad := t.TempDir()
	_ = os.WriteFile(filepath.Join(bad, "bot.meta.json"), []byte(`{"launch":{"fileName":"./missing"}}`), 0o644)
	_, _, err = runRef(t, "validate", "-n", "1", bad)
	var ie *referee.InfraError
	if !errors.As(err, &ie) {
		t.Errorf("err %v, want an infrastructure error", err)
	}
}

func TestValidateDeterminism(t *testing.T) {
	for _, tc := range []struct {
		agent string
		pass  bool
	}{{"eva", true}, {"random", false}} {
		bot := newTestBot(tc.agent)
		srv := httptest.NewServer(bot)
		rep, err := validateJSON(t, "-n", "2", "-seed", "8", "-d", srv.URL)
		srv.Close()
		if rep.Pass != tc.pass || (err == nil) != tc.pass || !rep.DeterminismChecked {
			t.Errorf("%s: pass %v, err %v, %d mismatches", tc.agent, rep.Pass, err, len(rep.DeterminismMismatch))
		}
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
			bot := newTestBot("random")
			srv := httptest.NewServer(bot)
			defer srv.Close()
			out, stderr, err := runRef(t, append([]string{"validate", "-json", "-n", "1"}, append(tt.args, srv.URL)...)...)
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
			for i, c := range bot.creates {
				seed, has := c["seed"]
				if has != tt.sent || has && seed != float64(rep.Seed+int64(i)) {
					t.Errorf("session %d: %v, want a seed sent: %v", i, c, tt.sent)
				}
			}
		})
	}
}

// An interrupted run still reports the matches it played, marked as such,
// and returns the cancellation (exit status 2), unless what it played
// already fails the validation.
func TestInterruptedRunReportsWhatItPlayed(t *testing.T) {
	tests := []struct {
		mode      string
		crashOne  bool // the bot's first session answers a card it was not offered
		wantCrash int
	}{
		{mode: "validate"},
		{mode: "benchmark"},
		{mode: "validate", crashOne: true, wantCrash: 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.mode, tt.crashOne), func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			bot := newTestBot("random")
			bot.fault = func(e string, s *botSession, n int) (int, string, bool) {
				if tt.crashOne && e == "choose-card" && s.id == "s1" {
					return 200, `{"rank":"Seven","suit":"Clubs","x":1}{}`, true
				}
				// The first call of the second match's first session.
				if e == "notify/deal-started" && len(bot.order) == 3 && n == 1 {
					cancel()
				}
				return 0, "", false
			}
			srv := httptest.NewServer(bot)
			defer srv.Close()
			args := []string{tt.mode, "-json", "-n", "4", "-seed", "3", "-target", "151", srv.URL}
			if tt.mode == "benchmark" {
				args = append(args, "random")
			}
			var out, errb bytes.Buffer
			err := run(ctx, args, cli.Env(nil), nil, &out, &errb)
			if tt.wantCrash > 0 && !errors.Is(err, referee.ErrFailed) || tt.wantCrash == 0 && (!errors.Is(err, context.Canceled) || errors.Is(err, referee.ErrFailed)) {
				t.Errorf("err %v", err)
			}
			var rep struct {
				Interrupted bool
				Pass        bool
				Completed   int `json:"matchesCompleted"`
				Crashed     int `json:"matchesCrashed"`
				Played      int
				Aborted     string
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("no report: %v\n%s", err, out.String())
			}
			if !rep.Interrupted || rep.Pass || rep.Completed+rep.Played+rep.Crashed != 1 || rep.Crashed != tt.wantCrash || rep.Aborted != "" {
				t.Errorf("report %+v, want one match played and the run marked interrupted", rep)
			}
		})
	}
}
