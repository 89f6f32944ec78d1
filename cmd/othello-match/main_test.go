package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/record"
)

// The test binary doubles as an engine: with OTHELLO_TEST_ENGINE=1 it
// serves the JSON-line protocol at a small fixed depth.
func TestMain(m *testing.M) {
	if os.Getenv("OTHELLO_TEST_ENGINE") == "1" {
		eng := othello.NewEngine(othello.EngineOptions{TTBits: 12, MaxDepth: 2, Pool: 1})
		if err := jsonline.Serve(context.Background(), eng, os.Stdin, os.Stdout, slog.New(slog.DiscardHandler)); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func selfEngine(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "OTHELLO_TEST_ENGINE=1 exec '" + exe + "'"
}

func TestMatchesAllModes(t *testing.T) {
	eng := selfEngine(t)
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"-mode", "all", "-n", "1", "-a", eng, "-b", eng, "-clock", "10m", "-max-think", "5m", "-seed", "3"}, cli.Env(nil), nil, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, mode := range othello.Modes() {
		if !strings.Contains(out.String(), "== "+mode.String()+": 1 matches") {
			t.Errorf("no summary for %v:\n%s", mode, out.String())
		}
	}
	if strings.Contains(out.String(), "lost by") {
		t.Errorf("a leg was adjudicated:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "A scored") {
		t.Errorf("no score line:\n%s", out.String())
	}
}

func TestMatchAdjudicatesIllegalAndLate(t *testing.T) {
	eng := selfEngine(t)
	tests := []struct {
		name, b, want string
	}{
		{"illegal", `while read l; do echo '{"move": 0}'; done`, "map[illegal:2]"},
		{"garbage", `while read l; do echo 'hello'; done`, "map[engine:2]"},
		{"silent", `sleep 30`, "map[timeout:2]"},
		{"crash", `exit 3`, "map[engine:2]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Only B's limits are under test: A (a race-built engine that
			// may start while every core is busy) gets a clock it cannot
			// miss, B a short one so that "silent" times out quickly.
			var out, errb bytes.Buffer
			err := run(context.Background(), []string{"-n", "1", "-a", eng, "-b", tc.b, "-clock", "10m", "-max-think", "5m", "-b-clock", "2s", "-b-max-think", "1s"}, cli.Env(nil), nil, &out, &errb)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), "A won 1") || !strings.Contains(out.String(), "B: failures "+tc.want) {
				t.Fatalf("unexpected result:\n%s", out.String())
			}
			// Adjudication: the failing side scores 0, the other 64, per leg.
			if !strings.Contains(out.String(), "A 128 – B 0") {
				t.Fatalf("no 64-0 adjudication in both legs:\n%s", out.String())
			}
			// One match won: 100%, no spread measurable from one match.
			if !strings.Contains(out.String(), "A scored 100.0% [100.0% – 100.0%] (95%), Elo +1200 [+1200, +1200]") {
				t.Errorf("score line:\n%s", out.String())
			}
		})
	}
}

func TestFailuresOfAExitCode(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"-n", "1", "-a", "exit 1", "-b", selfEngine(t), "-clock", "10m", "-max-think", "5m"}, cli.Env(nil), nil, &out, &errb)
	if !errors.Is(err, errFailures) {
		t.Fatalf("err %v, want errFailures\n%s", err, out.String())
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{}, {"-a", "x"}, {"-a", "x", "-b", "y", "-mode", "chess"}, {"-a", "x", "-b", "y", "-n", "0"}, {"-a", "x", "-b", "y", "-b-clock", "-1s"},
		{"-a", "x", "-b", "y", "-concurrency", "0"}, {"-a", "x", "-b", "y", "-j", "2"}, {"-a", "x", "-b", "y", "extra"},
		{"-a", "x", "-b", "y", "-sprt", "30,0"}, {"-a", "x", "-b", "y", "-sprt", "x"},
		{"-a", "x", "-b", "engine", "-b-nboard"}, {"-a", "x", "-b", "y", "-nboard-depth", "16"}, {"-a", "x", "-b", "y", "-nboard-dir", "/tmp"},
		{"-a", "x", "-b", "y", "-b-nboard", "-nboard-depth", "-1"}, {"-a", "x", "-b", "y", "-mode", "grand", "-b-nboard"},
	} {
		if err := run(context.Background(), args, cli.Env(nil), nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// An interrupted run summarises the matches it finished (none here) and
// returns the cancellation; -seed 0 prints the seed it drew.
func TestInterruptedRunSummarises(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out, errb bytes.Buffer
	err := run(ctx, []string{"-n", "3", "-a", "exit 1", "-b", "exit 1", "-seed", "0"}, cli.Env(nil), nil, &out, &errb)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want the cancellation", err)
	}
	for _, want := range []string{"== std: 0 matches", "interrupted: the std summary covers the 0 matches finished"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !regexp.MustCompile(`^othello-match: seed [1-9]\d*\n$`).MatchString(errb.String()) {
		t.Errorf("stderr %q, want the drawn seed", errb.String())
	}
}

// TestSPRTStopsEarly: against an engine that fails every leg, the
// sequential test accepts H1 long before the 400 matches asked for, and
// the summary says so with A's disc margin.
func TestSPRTStopsEarly(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"-n", "400", "-a", selfEngine(t), "-b", "exit 1", "-clock", "10m", "-max-think", "5m", "-b-clock", "2s", "-sprt", "0,30", "-q"}, cli.Env(nil), nil, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	m := regexp.MustCompile(`sequential test: H1 accepted after (\d+) matches`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no verdict:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n >= 400 {
		t.Fatalf("the test did not stop early: %s", m[0])
	}
	if !strings.Contains(out.String(), "A's disc margin per match +128.00") {
		t.Fatalf("no disc margin line:\n%s", out.String())
	}
}

// TestPlayerSpecs: a bad player spec (othello/match's tests hold the
// cases) is named with its flag, and nothing is played.
func TestPlayerSpecs(t *testing.T) {
	// Through run: the flag and the option are named, and nothing is played.
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"-a", "engine:budgte=1s", "-b", "engine"}, cli.Env(nil), nil, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "-a") || !strings.Contains(err.Error(), "budgte") || out.Len() > 0 {
		t.Errorf("run with a bad -a: %v, output %q", err, out.String())
	}
}

// TestInProcessEngine: the built-in engine played in process makes the
// same moves as the same engine behind the JSON-line protocol (this test
// binary at depth 2, 2^12 entries), so every match between them is drawn
// with equal disc totals, in every mode.
func TestInProcessEngine(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"-mode", "all", "-n", "1", "-a", "engine:depth=2,tt-bits=12", "-b", selfEngine(t), "-clock", "10m", "-max-think", "5m", "-seed", "5"}, cli.Env(nil), nil, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	for _, mode := range othello.Modes() {
		if !strings.Contains(out.String(), "== "+mode.String()+": 1 matches: A won 0, lost 0, drew 1") {
			t.Errorf("%v: not a draw:\n%s", mode, out.String())
		}
	}
	if regexp.MustCompile(`A (\d+) – B (\d+)`).ReplaceAllStringFunc(out.String(), func(m string) string {
		f := strings.Fields(m)
		if f[1] != f[4] {
			return "UNEQUAL"
		}
		return m
	}) != out.String() {
		t.Errorf("unequal totals:\n%s", out.String())
	}
}

// TestRecordAndReport: -record writes each match's two legs in every mode
// as othello/record reads them (the engine's score and depth with each
// move), and report turns the folder into the leg viewer.
func TestRecordAndReport(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"-mode", "all", "-n", "1", "-a", "engine:depth=2", "-b", "engine:depth=1", "-seed", "4", "-q", "-record", dir}, cli.Env(nil), nil, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	for _, mode := range othello.Modes() {
		f, err := os.Open(filepath.Join(dir, mode.String()+"-match-0001.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		legs, err := record.Read(f)
		f.Close()
		if err != nil || len(legs) != 2 || legs[0].Players[0].Name != "engine:depth=2" || legs[1].Players[1].Name != "engine:depth=2" {
			t.Fatalf("%v: %d legs, %v", mode, len(legs), err)
		}
		if m := legs[0].Moves[0]; m.Score == nil || m.Depth == 0 || m.RemainingMs == nil {
			t.Errorf("%v: the first move's record %+v lacks the engine's answer", mode, m)
		}
	}
	page := filepath.Join(dir, "legs.html")
	if err := run(t.Context(), []string{"report", "-o", page, dir}, cli.Env(nil), nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "Leg viewer") {
		t.Fatal("no viewer in the report")
	}
	if err := run(t.Context(), []string{"report", "-o", page}, cli.Env(nil), nil, &out, &errb); err == nil {
		t.Fatal("a report of nothing")
	}
}

// TestSequentialThreads: a match of the built-in engine with a parallel
// search against itself without, its legs one after the other.
func TestSequentialThreads(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"-n", "1", "-sequential", "-a", "engine:depth=3,tt-bits=12,threads=2", "-b", "engine:depth=3,tt-bits=12", "-clock", "10m", "-max-think", "5m"}, cli.Env(nil), nil, &out, &errb)
	if err != nil || !strings.Contains(out.String(), "== std: 1 matches") {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
}

// TestSolve: solve times two players on self-play positions, a line a
// position with both answers and their ratio, then the totals; our
// engine at a depth that solves, with tables of two sizes, finds the same
// scores.
func TestSolve(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"solve", "-a", "engine:depth=64,tt-bits=12,threads=1", "-b", "engine:depth=64,tt-bits=14,threads=1", "-seed", "46001", "-empties", "10,12", "-per", "2"}, cli.Env(nil), nil, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	line := regexp.MustCompile(`^seed 46001, #[12], 1[02] empties \| A [a-h][1-8] [+-]\d+ \d+\.\d\d s \| B [a-h][1-8] [+-]\d+ \d+\.\d\d s \| A/B \d+\.\d\d$`)
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 4 positions and the totals:\n%s", len(lines), out.String())
	}
	for _, l := range lines[:4] {
		if !line.MatchString(l) {
			t.Errorf("line %q", l)
		}
		f := strings.Fields(l)
		if f[8] != f[14] {
			t.Errorf("the scores differ: %q", l)
		}
	}
	if !regexp.MustCompile(`^total: A \d+\.\d\d s, B \d+\.\d\d s, A/B \d+\.\d{3}; geometric mean of the ratios \d+\.\d{3}, A slower on [0-4] of 4$`).MatchString(lines[4]) {
		t.Errorf("totals %q", lines[4])
	}
}

func TestSolveFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{}, "-a"},
		{[]string{"-a", "engine", "-a-depth", "24"}, "not an NBoard engine"},
		{[]string{"-a", "engine", "-b", "nboard:ntest", "-b-depth", "24,x"}, "D or E:D"},
		{[]string{"-a", "engine", "-b", "nboard:ntest", "-b-depth", "24,24"}, "twice"},
		{[]string{"-a", "engine", "-b", "nboard:ntest", "-b-depth", "25:99"}, "depths 1–64"},
		{[]string{"-a", "engine", "-seed", "3", "-empties", "0"}, "-empties"},
		{[]string{"-a", "engine", "-seed", "3", "-per", "0"}, "-per"},
		{[]string{"-a", "engine:budgte=1s"}, "budgte"},
	} {
		err := run(context.Background(), append([]string{"solve"}, c.args...), cli.Env(nil), nil, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("solve %q: err %v, want %q", c.args, err, c.err)
		}
	}
}

func TestDepthsOf(t *testing.T) {
	m, err := depthsOf("24,25:26, 26:27")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ empties, want int }{{20, 24}, {24, 24}, {25, 26}, {26, 27}} {
		if d, ok := depthAt(m, c.empties); !ok || d != c.want {
			t.Errorf("at %d empties: %d %v, want %d", c.empties, d, ok, c.want)
		}
	}
	if m, err := depthsOf(""); m != nil || err != nil {
		t.Errorf("none: %v %v", m, err)
	}
	if _, ok := depthAt(map[int]int{25: 26}, 24); ok {
		t.Error("no default: no depth at 24")
	}
}
