package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/flipsight/fakeserver"
)

// The test binary doubles as an NBoard engine for TestNBoardEngine: with
// FLIPSIGHT_TEST_NBOARD=1 it answers "go" with the last legal move of the
// position "set game" gave it.
func TestMain(m *testing.M) {
	if os.Getenv("FLIPSIGHT_TEST_NBOARD") == "1" {
		os.Exit(nboardChild(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

func nboardChild(in io.Reader, out io.Writer) int {
	board := regexp.MustCompile(`BO\[8 ([-*O]{64}) ([*O])\]`)
	var pos *othello.State
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "set game "):
			m := board.FindStringSubmatch(line)
			if m == nil {
				return 2
			}
			pos = othello.NewState(othello.Std)
			for i, c := range m[1] {
				pos.Cells[i] = map[rune]int8{'-': othello.Empty, '*': othello.Black, 'O': othello.White}[c]
			}
			pos.Turn = map[string]int{"*": othello.Black, "O": othello.White}[m[2]]
		case line == "go":
			legal := pos.LegalMoves()
			if len(legal) == 0 {
				return 3
			}
			fmt.Fprintf(out, "status thinking\n=== %s/0.0/0.1\n", strings.ToUpper(othello.SquareName(legal[len(legal)-1], 8)))
		case line == "quit":
			return 0
		}
	}
	return 0
}

// env is an environment holding only token as FS_BOT_TOKEN.
func env(token string) func(string) string {
	return cli.Env(map[string]string{"FS_BOT_TOKEN": token})
}

func TestTokenOnlyFromEnvironment(t *testing.T) {
	for _, tok := range []string{"", "abc", "fsbm_ bad"} {
		var out, errb bytes.Buffer
		err := run(context.Background(), nil, env(tok), &out, &errb, nil)
		if !errors.Is(err, errToken) || !strings.Contains(errb.String(), "FS_BOT_TOKEN is missing or invalid") {
			t.Errorf("token %q: err %v, stderr %q", tok, err, errb.String())
		}
	}
	// There is no token flag.
	if err := run(context.Background(), []string{"--token", "fsbm_x"}, env(""), &bytes.Buffer{}, &bytes.Buffer{}, nil); err == nil || errors.Is(err, errToken) {
		t.Errorf("--token accepted or ignored: %v", err)
	}
}

func TestFlagChecks(t *testing.T) {
	for _, args := range [][]string{
		{"--api", "http://flipsight.invalid/x"},
		{"--stream-url", "https://elsewhere.invalid/stream"},
		{"--max-think-seconds", "301"},
		{"--engine-name", "/usr/bin/edax"},
		{"--tt-bits", "40"},
		{"--threads", "0"},
		{"--engine-nboard"},
		{"--engine", "ntest x", "--engine-nboard", "--nboard-depth", "-1"},
		{"extra"},
	} {
		if err := run(context.Background(), args, env("fsbm_ok"), &bytes.Buffer{}, &bytes.Buffer{}, nil); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// fakeURLs are any https URLs of one host: the fake server's Client
// answers them all in process.
var fakeURLs = []string{"--api", "https://fake.test/api", "--stream-url", "https://fake.test/stream"}

// TestOnceMatch plays a short bot match against the fake server through
// run with the platform's own cadence, under the fake clock of a synctest
// bubble: the documentation's 1 s poll floor is kept exactly and costs no
// time.
func TestOnceMatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := fakeserver.New(21)
		id := fake.Challenge(othello.Std, 6) // the engine solves at once: its own time does not pass here
		var out, errb bytes.Buffer
		// Without the stream, so that the documentation's 1 s poll floor applies.
		args := append(slices.Clone(fakeURLs), "--once-match", strconv.FormatInt(id, 10), "--tt-bits", "12", "--threads", "2", "--engine-name", "test engine", "--practice", "--no-stream")
		ctx, cancel := context.WithTimeout(t.Context(), 40*time.Second)
		defer cancel()
		if err := run(ctx, args, env("fsbm_test"), &out, &errb, fake.Client()); err != nil {
			t.Fatalf("%v\n%s", err, errb.String())
		}
		m, _ := fake.Match(id)
		if m.Status != "finished" {
			t.Fatalf("status %s\n%s", m.Status, errb.String())
		}
		envs := fake.Envs()
		if len(envs) == 0 || envs[0].Engine != "test engine" || !envs[0].Practice || envs[0].CPU == "" || envs[0].OS == "" {
			t.Errorf("environment %+v", envs)
		}
		if strings.Contains(errb.String(), "fsbm_test") {
			t.Error("token written to the log")
		}
		p := fake.Polls()
		if len(p) < 2 {
			t.Fatalf("%d polls", len(p))
		}
		for i := 1; i < len(p); i++ {
			if p[i].Sub(p[i-1]) < time.Second {
				t.Errorf("two polls %v apart", p[i].Sub(p[i-1]))
			}
		}
	})
}

func TestRejectedTokenAndMaxRuntime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fake := fakeserver.New(22)
		var errb bytes.Buffer
		err := run(t.Context(), fakeURLs, env("fsbm_wrong"), &bytes.Buffer{}, &errb, fake.Client())
		if !errors.Is(err, flipsight.ErrCredential) || !strings.Contains(errb.String(), "Bot credential rejected") {
			t.Fatalf("err %v\n%s", err, errb.String())
		}
		start := time.Now()
		err = run(t.Context(), append(slices.Clone(fakeURLs), "--max-runtime", "0.3", "--no-stream"), env("fsbm_test"), &bytes.Buffer{}, &bytes.Buffer{}, fake.Client())
		if !errors.Is(err, flipsight.ErrMaxRuntime) || time.Since(start) != 300*time.Millisecond {
			t.Fatalf("err %v after %v, want ErrMaxRuntime after 300ms", err, time.Since(start))
		}
	})
}

// TestNBoardEngine: the connector drives an NBoard engine (this test
// binary in that role), named by a player spec or by the older flags, one
// process per leg, and plays its moves: the engine answers the last legal
// move, never the first legal move the connector falls back to. A process
// runs on the real clock.
func TestNBoardEngine(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := "FLIPSIGHT_TEST_NBOARD=1 exec '" + exe + "'"
	for _, flags := range [][]string{{"--engine", "nboard:depth=3:" + cmd}, {"--engine", cmd, "--engine-nboard", "--nboard-depth", "3"}} {
		t.Run(flags[1][:6], func(t *testing.T) { nboardEngine(t, flags) })
	}
}

func nboardEngine(t *testing.T, flags []string) {
	fake := fakeserver.New(23)
	id := fake.Challenge(othello.Std, 12)
	var errb bytes.Buffer
	args := append(slices.Clone(fakeURLs), "--once-match", strconv.FormatInt(id, 10), "-v")
	args = append(args, flags...)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, args, env("fsbm_test"), &bytes.Buffer{}, &errb, fake.Client()); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if m, _ := fake.Match(id); m.Status != "finished" {
		t.Fatalf("status %s\n%s", m.Status, errb.String())
	}
	for _, bad := range []string{"Engine failed", "outside legal_moves"} {
		if strings.Contains(errb.String(), bad) {
			t.Errorf("the connector fell back (%s):\n%s", bad, errb.String())
		}
	}
	if n := strings.Count(errb.String(), "engine answered"); n < 2 {
		t.Errorf("%d engine answers logged:\n%s", n, errb.String())
	}
	if envs := fake.Envs(); len(envs) == 0 || !strings.HasPrefix(envs[0].Engine, "NBoard engine command") {
		t.Errorf("environment %+v", envs)
	}
}

// TestPGOProfileIsTheEngines: both commands that play rated std games are
// built with one profile (docs/othello.md says how it is written).
func TestPGOProfileIsTheEngines(t *testing.T) {
	mine, err := os.ReadFile("default.pgo")
	if err != nil {
		t.Fatal(err)
	}
	engine, err := os.ReadFile("../othello-engine/default.pgo")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mine, engine) {
		t.Fatal("cmd/flipsight/default.pgo differs from cmd/othello-engine/default.pgo: copy it over")
	}
}
