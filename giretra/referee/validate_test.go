package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
	"github.com/botarena/gamebot/giretra/wire"
)

func TestValidateHTTPBotPasses(t *testing.T) {
	bot := refereetest.NewBot("calculating")
	rep, err := Validate(t.Context(), validation(t, serve(t, bot), 4, 17))
	if err != nil {
		t.Fatalf("validate: %v (%+v)", err, rep)
	}
	if !rep.Pass || rep.Completed != 4 || rep.Crashed != 0 || len(rep.Violations) != 0 {
		t.Errorf("report = %+v", rep)
	}
	if rep.Opponent != "random" || rep.Target != 151 {
		t.Errorf("opponent %q target %d", rep.Opponent, rep.Target)
	}
	for _, s := range rep.Timing {
		if s.Kind != "Cut" && s.Count == 0 {
			t.Errorf("no %s timings", s.Kind)
		}
	}
	if len(bot.Problems) > 0 {
		t.Errorf("protocol problems: %q", bot.Problems)
	}
	// Two sessions per match, Bottom then Top, seeds 17.. in creation order,
	// one matchId for the whole run; no DELETE for game sessions.
	if len(bot.Creates) != 8 {
		t.Fatalf("%d sessions created, want 8", len(bot.Creates))
	}
	ids := map[any]bool{}
	for i, c := range bot.Creates {
		want := []string{"Bottom", "Top"}[i%2]
		if c["position"] != want || c["seed"] != float64(17+i) {
			t.Errorf("session %d: %v, want position %s seed %d", i, c, want, 17+i)
		}
		ids[c["matchId"]] = true
	}
	if len(ids) != 1 {
		t.Errorf("matchIds: %v, want one", ids)
	}
	if bot.Deletes != 0 { // no smoke test for URLs, no DELETE of game sessions
		t.Errorf("%d DELETEs", bot.Deletes)
	}
	if len(bot.Conns) > 2 {
		t.Errorf("%d connections for a sequential run: no keep-alive?", len(bot.Conns))
	}
	checkCallOrder(t, bot)
}

// checkCallOrder checks each session's calls: deal-started opens each deal
// (the session is created by it), choose-cut only right after it,
// negotiation-completed after the bids, card-played after every card, and
// match-ended last.
func checkCallOrder(t *testing.T, bot *refereetest.Bot) {
	t.Helper()
	for _, id := range bot.Order {
		calls := bot.Sessions[id].Calls
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
		name   string
		notify [6]bool
		want   []string // the only notifications allowed
	}{
		{"none", [6]bool{}, nil},
		{"card-played,deal-ended", players.EventSet([]string{"card-played", "Deal-Ended"}), []string{"notify/card-played", "notify/deal-ended"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := refereetest.NewBot("random")
			c := validation(t, serve(t, bot), 2, 3)
			c.Notify = &tc.notify
			if _, err := Validate(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			for _, id := range bot.Order {
				calls := bot.Sessions[id].Calls
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
		fault     func(endpoint string, s *refereetest.Session, n int) (int, string, bool)
		wantViol  bool
		wantCrash string
		wantWarn  bool
	}{
		{name: "card not offered", fault: func(e string, s *refereetest.Session, n int) (int, string, bool) {
			if e == "choose-card" {
				return 200, `{"rank":"seven","suit":"CLUBS"}`, true
			}
			return 0, "", false
		}, wantCrash: "not among the offered options"},
		{name: "trailing data", fault: func(e string, s *refereetest.Session, n int) (int, string, bool) {
			if e == "choose-cut" {
				return 200, `{"position":10,"fromTop":true}{}`, true
			}
			return 0, "", false
		}, wantCrash: "not a JSON object"},
		{name: "cut out of range", fault: func(e string, s *refereetest.Session, n int) (int, string, bool) {
			if e == "choose-cut" {
				return 200, `{"position":3,"fromTop":true}`, true
			}
			return 0, "", false
		}, wantViol: true, wantCrash: "outside 6..26"},
		{name: "lower-case property", fault: func(e string, s *refereetest.Session, n int) (int, string, bool) {
			if e == "choose-negotiation-action" {
				return 200, `{"Type":"Accept"}`, true
			}
			return 0, "", false
		}, wantCrash: "matches no offered action"},
		{name: "server error", fault: func(e string, s *refereetest.Session, n int) (int, string, bool) {
			if e == "choose-negotiation-action" {
				return 500, "boom", true
			}
			return 0, "", false
		}, wantCrash: "HTTP 500"},
		{name: "notifications fail", fault: func(e string, s *refereetest.Session, n int) (int, string, bool) {
			if e == "notify/trick-completed" {
				return 503, "", true
			}
			return 0, "", false
		}, wantWarn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bot := refereetest.NewBot("random")
			bot.Fault = tc.fault
			rep, err := Validate(t.Context(), validation(t, serve(t, bot), 2, 5))
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantCrash == "" {
				if !rep.Pass {
					t.Fatalf("report %+v", rep)
				}
			} else {
				if rep.Pass || !rep.Failed() || rep.Crashed == 0 {
					t.Fatalf("report %+v", rep)
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

// A decision time limit makes slow decisions violations; the HTTP
// decision timeout makes one a crash. The bot is slower than either.
func TestValidateTimeouts(t *testing.T) {
	bot := refereetest.NewBot("random")
	bot.Delay = 12 * time.Millisecond // per decision
	url := serve(t, bot)
	c := validation(t, url, 1, 1)
	c.MaxDecisionTime = 5 * time.Millisecond
	rep, err := Validate(t.Context(), c)
	if err != nil || !rep.Failed() || len(rep.Violations) == 0 || rep.Crashed != 0 {
		t.Errorf("err %v, %d violations, %d crashes", err, len(rep.Violations), rep.Crashed)
	}
	c = validation(t, url, 1, 1)
	c.DecisionTimeout = 3 * time.Millisecond
	rep, err = Validate(t.Context(), c)
	if err != nil || !rep.Failed() || rep.Crashed != 1 || !strings.Contains(rep.Crashes[0], "timed out") {
		t.Errorf("err %v, crashes %q", err, rep.Crashes)
	}
}

func TestValidateSeedDialect(t *testing.T) {
	bot := refereetest.NewBot("eva")
	c := validation(t, serve(t, bot), 2, 9)
	c.Dialect = wire.Seed
	rep, err := Validate(t.Context(), c)
	if err != nil || !rep.Pass || rep.Dialect != "seed" {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	for _, c := range bot.Creates {
		if _, has := c["position"]; has {
			t.Errorf("seed dialect create body %v has a position", c)
		}
	}
	for _, id := range bot.Order {
		if slices.Contains(bot.Sessions[id].Calls, "notify/negotiation-completed") {
			t.Errorf("seed dialect sent negotiation-completed")
		}
	}
	if len(bot.Problems) > 0 {
		t.Errorf("problems: %q", bot.Problems)
	}
}

func TestValidateConcurrentSessionsAreIsolated(t *testing.T) {
	bot := refereetest.NewBot("calculating")
	c := validation(t, serve(t, bot), 4, 11)
	c.Concurrency, c.Seats = 3, "alternate"
	rep, err := Validate(t.Context(), c)
	if err != nil || !rep.Pass || rep.Completed != 4 {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	if len(bot.Order) != 8 {
		t.Errorf("%d sessions, want 8", len(bot.Order))
	}
	// Odd matches put the bot at Team2: Left and Right sessions.
	seats := map[giretra.Position]int{}
	for _, id := range bot.Order {
		seats[bot.Sessions[id].Seat]++
	}
	if seats[giretra.Left] != 2 || seats[giretra.Bottom] != 2 || seats[giretra.Top] != 2 || seats[giretra.Right] != 2 {
		t.Errorf("seats %v", seats)
	}
}

// In-process agents under test: same seed, same report.
func TestValidateIsReproducible(t *testing.T) {
	var outs [2]string
	for i := range outs {
		c := ValidateConfig{Setup: setup(t), Bot: "eva", Opponent: "calculating", Matches: 5}
		c.Seed = 4
		rep, err := Validate(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = fmt.Sprint(rep.BotWins, rep.Deals, rep.ModesCovered)
	}
	if outs[0] != outs[1] {
		t.Errorf("runs differ: %s / %s", outs[0], outs[1])
	}
}

// Session seeds go to bots only in seeded runs, counting from the seed
// in creation order, as the engine sends them.
func TestValidateSessionSeeds(t *testing.T) {
	for _, seeded := range []bool{false, true} {
		bot := refereetest.NewBot("random")
		c := validation(t, serve(t, bot), 1, 17)
		c.Seeded = seeded
		if _, err := Validate(t.Context(), c); err != nil {
			t.Fatal(err)
		}
		for i, cr := range bot.Creates {
			seed, has := cr["seed"]
			if has != seeded || has && seed != float64(17+i) {
				t.Errorf("seeded %v, session %d: %v", seeded, i, cr)
			}
		}
	}
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
	c := validation(t, dir, 2, 17)
	var log []string
	c.Log = func(msg string) { log = append(log, msg) }
	rep, err := Validate(t.Context(), c)
	if err != nil || !rep.Pass || rep.Bot != "folderbot" {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	if len(log) != 2 || !strings.HasPrefix(log[0], "folderbot: init: sh -c") || !strings.HasPrefix(log[1], "folderbot: started pid ") {
		t.Errorf("launcher's messages %q", log)
	}
	if _, err := os.Stat(filepath.Join(dir, "init.done")); err != nil {
		t.Errorf("init command did not run: %v", err)
	}
	// The bot logs what it saw as it goes (it is killed at the end).
	botLog, _ := os.ReadFile(filepath.Join(dir, "bot.log"))
	for _, want := range []string{"LAUNCHER_PID ok", "smoke create", "smoke delete", "notify/deal-started", "notify/negotiation-completed"} {
		if !strings.Contains(string(botLog), want) {
			t.Errorf("bot log lacks %q:\n%s", want, botLog)
		}
	}
	if strings.Contains(string(botLog), "notify/card-played") {
		t.Error("card-played sent although bot.meta.json does not list it")
	}
	// A failing launch is an infrastructure error.
	bad := t.TempDir()
	_ = os.WriteFile(filepath.Join(bad, "bot.meta.json"), []byte(`{"launch":{"fileName":"./missing"}}`), 0o644)
	_, err = Validate(t.Context(), validation(t, bad, 1, 1))
	var ie *InfraError
	if !errors.As(err, &ie) {
		t.Errorf("err %v, want an infrastructure error", err)
	}
}

func TestValidateDeterminism(t *testing.T) {
	for _, tc := range []struct {
		agent string
		pass  bool
	}{{"eva", true}, {"random", false}} {
		c := validation(t, serve(t, refereetest.NewBot(tc.agent)), 2, 8)
		c.Determinism = true
		rep, err := Validate(t.Context(), c)
		if err != nil || rep.Pass != tc.pass || rep.Failed() == tc.pass || !rep.DeterminismChecked {
			t.Errorf("%s: pass %v, err %v, %d mismatches", tc.agent, rep.Pass, err, len(rep.DeterminismMismatch))
		}
	}
}

// An interrupted run still reports the matches it played, marked as such;
// it cannot pass, but what it played may already fail.
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
			bot := refereetest.NewBot("random")
			bot.Fault = func(e string, s *refereetest.Session, n int) (int, string, bool) {
				if tt.crashOne && e == "choose-card" && s.ID == "s1" {
					return 200, `{"rank":"Seven","suit":"Clubs","x":1}{}`, true
				}
				// The first call of the second match's first session.
				if e == "notify/deal-started" && len(bot.Order) == 3 && n == 1 {
					cancel()
				}
				return 0, "", false
			}
			url := serve(t, bot)
			s := setup(t)
			s.Seed, s.Seeded = 3, true
			var interrupted, pass bool
			var played, crashed int
			var aborted string
			if tt.mode == "benchmark" {
				rep, err := Benchmark(ctx, BenchmarkConfig{Setup: s, A: url, B: "random", Matches: 4, K: 24, EloA: 1200, EloB: 1200})
				if err != nil {
					t.Fatal(err)
				}
				interrupted, played, aborted = rep.Interrupted, rep.Played, rep.Aborted
			} else {
				rep, err := Validate(ctx, ValidateConfig{Setup: s, Bot: url, Opponent: "random", Matches: 4})
				if err != nil {
					t.Fatal(err)
				}
				interrupted, pass, played, crashed = rep.Interrupted, rep.Pass, rep.Completed, rep.Crashed
				if rep.Failed() != (tt.wantCrash > 0) {
					t.Errorf("failed %v", rep.Failed())
				}
			}
			if !interrupted || pass || played+crashed != 1 || crashed != tt.wantCrash || aborted != "" {
				t.Errorf("interrupted %v, pass %v, %d played, %d crashed, aborted %q: want one match played and the run marked interrupted",
					interrupted, pass, played, crashed, aborted)
			}
		})
	}
}
