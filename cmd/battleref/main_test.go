package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/internal/cli"
)

// patient gives HTTP bots and answers to impossible fleets limits that no
// loaded machine reaches: the tests judge the answers, not the speed
// (battleship/referee tests the limits themselves). Subcommands (show,
// report) are left as they are.
func patient(args []string) []string {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args
	}
	return append([]string{"-timeout", "10m", "-slow-init", "10m"}, args...)
}

func runJSON(t *testing.T, args ...string) (*referee.Report, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(t.Context(), patient(append([]string{"-json"}, args...)), cli.Env(nil), nil, &out, &errOut)
	if err != nil {
		t.Fatalf("run %v: %v\nstderr: %s", args, err, errOut.String())
	}
	var rep referee.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out.String())
	}
	return &rep, errOut.String()
}

func TestRunTarget(t *testing.T) {
	rep, stderr := runJSON(t, "-mode", "target", "-bot", "self", "-n", "6", "-concurrency", "2", "-seed", "7")
	if rep.Games != 6 || rep.Wins != 6 || rep.Invalid != 0 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Shots == nil || rep.Shots.Mean < 17 || rep.Shots.Max > 100 || rep.Shots.Median > rep.Shots.P90 {
		t.Fatalf("shots %+v", rep.Shots)
	}
	if rep.Latency.Requests != int(rep.Shots.Mean*6+0.5) || rep.Latency.P99ms < rep.Latency.P50ms {
		t.Errorf("latency %+v vs %d shots", rep.Latency, int(rep.Shots.Mean*6))
	}
	if stderr != "" {
		t.Errorf("progress written to a non-terminal: %q", stderr)
	}
}

func TestRunDuel(t *testing.T) {
	rep, _ := runJSON(t, "-mode", "duel", "-bot", "self", "-opponent", "stupid", "-n", "4", "-w", "6", "-h", "6", "-fleet", "0,1,1,0,0,0")
	if rep.Wins != 4 || rep.Invalid != 0 {
		t.Fatalf("self should beat stupid every time: %+v", rep)
	}
	// 4 wins in 4: Wilson 95% [51.0%, 100%].
	if wr := rep.WinRate; wr == nil || wr.Rate != 1 || wr.Low95 != 0.51 || wr.High95 != 1 {
		t.Errorf("win rate %+v", rep.WinRate)
	}
	// Self-play: both seats are the same server (same game-ids).
	rep, _ = runJSON(t, "-mode", "duel", "-bot", "self", "-opponent", "self", "-n", "4")
	if rep.Wins+rep.Losses != 4 || rep.Invalid != 0 {
		t.Fatalf("self-play: %+v", rep)
	}
}

func TestRunConfigs(t *testing.T) {
	rep, _ := runJSON(t, "-mode", "configs", "-bot", "self", "-max-cells", "120")
	if rep.Invalid != 0 || len(rep.Configs) < 10 {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Configs {
		if !c.OK {
			t.Errorf("%s: %s", c.Name, c.Detail)
		}
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // in the error
	}{
		{[]string{"-mode", "nope"}, `"nope"`},
		{[]string{"-fleet", "1,2"}, `"1,2"`},
		{[]string{"-bot", "ftp://x"}, `"ftp://x"`},
		{[]string{"-bot", "http://"}, `"http://"`},
		{[]string{"-bot", "https:///battleship"}, `"https:///battleship"`},
		{[]string{"-mode", "duel", "-opponent", "stupd"}, `"stupd"`},
		{[]string{"-mode", "duel-inproc", "-bot", "dreadnougt"}, `"dreadnougt"`},
		{[]string{"-mode", "target", "-opponent", "stupid"}, `-opponent "stupid"`},
		{[]string{"-mode", "calibrate", "-bot", "self"}, `-bot "self"`},
		{[]string{"-w", "5", "-h", "5", "-fleet", "0,0,0,0,0,1"}, "board"},
		{[]string{"-n", "0"}, "-n"},
		{[]string{"-concurrency", "-1"}, "-concurrency"},
		{[]string{"-games", "3"}, "-games"},
		{[]string{"extra"}, "extra"},
	} {
		var out, errOut bytes.Buffer
		if err := run(t.Context(), patient(tt.args), cli.Env(nil), nil, &out, &errOut); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error naming %s", tt.args, err, tt.want)
		}
	}
}

func TestTextReport(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(t.Context(), patient([]string{"-mode", "target", "-n", "2", "-seed", "3"}), cli.Env(nil), nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"games 2", "wins 2", "shots mean", "latency over"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunCalibrate(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		games    int
		min, max float64 // sane range of every mean
	}{
		{"standard", []string{"-n", "20", "-seed", "1"}, 20, 17, 100},
		{"concurrency 1 engine fleets", []string{"-n", "8", "-seed", "2", "-concurrency", "1", "-hidden", "engine"}, 8, 17, 100},
		{"small board", []string{"-n", "10", "-seed", "3", "-w", "6", "-h", "6", "-fleet", "0,1,1,0,0,0"}, 10, 5, 36},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, stderr := runJSON(t, append([]string{"-mode", "calibrate"}, tt.args...)...)
			if rep.Mode != "calibrate" || rep.Games != tt.games || rep.Seed == 0 || rep.Bot != "" {
				t.Fatalf("report %+v", rep)
			}
			var names []string
			for i, c := range rep.Calibration {
				names = append(names, c.Shooter)
				if c.Games != tt.games || c.Finished != tt.games {
					t.Errorf("%s: %d of %d games finished", c.Shooter, c.Finished, c.Games)
				}
				s := c.Shots
				if s == nil || s.Mean < tt.min || s.Mean > tt.max || s.Min > int(s.Median) || s.Median > s.P90 || s.P90 > float64(s.Max) {
					t.Errorf("%s: shots %+v", c.Shooter, s)
				}
				if c.MeanCI95 <= 0 || (i == 0) != (c.VsSelf == nil) {
					t.Errorf("%s: ci %v, vs self %+v", c.Shooter, c.MeanCI95, c.VsSelf)
				}
			}
			if got := strings.Join(names, ","); got != "self,self-told,density-told,dg,dreadnought" {
				t.Errorf("shooters %s", got)
			}
			if stderr != "" {
				t.Errorf("stderr: %q", stderr)
			}
		})
	}
	// Reproducible: the same seed gives the same figures at any -concurrency.
	a, _ := runJSON(t, "-mode", "calibrate", "-n", "12", "-seed", "5", "-concurrency", "1")
	b, _ := runJSON(t, "-mode", "calibrate", "-n", "12", "-seed", "5", "-concurrency", "3")
	for i := range a.Calibration {
		if *a.Calibration[i].Shots != *b.Calibration[i].Shots {
			t.Errorf("%s: %+v at -concurrency 1, %+v at 3", a.Calibration[i].Shooter, a.Calibration[i].Shots, b.Calibration[i].Shots)
		}
	}
	// Text table.
	var out, errOut bytes.Buffer
	if err := run(t.Context(), patient([]string{"-mode", "calibrate", "-n", "4", "-seed", "3"}), cli.Env(nil), nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mode calibrate", "seed 3", "self ", "self-told", "density-told", "4/4", "vs self"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// The seed rule shared by every command: 1 by default, -seed 0 draws one
// and prints it.
func TestSeedRule(t *testing.T) {
	rep, stderr := runJSON(t, "-mode", "calibrate", "-n", "2")
	if rep.Seed != 1 || stderr != "" {
		t.Errorf("default seed %d, stderr %q", rep.Seed, stderr)
	}
	rep, stderr = runJSON(t, "-mode", "calibrate", "-n", "2", "-seed", "0")
	if rep.Seed == 0 || stderr != fmt.Sprintf("battleref: seed %d\n", rep.Seed) {
		t.Errorf("drawn seed %d, stderr %q", rep.Seed, stderr)
	}
}

// An interrupted run prints its report, marked, and returns the
// cancellation.
func TestInterruptedRunReports(t *testing.T) {
	for _, mode := range []string{"target", "duel", "configs", "calibrate"} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			var out, errOut bytes.Buffer
			err := run(ctx, patient([]string{"-json", "-mode", mode, "-n", "5"}), cli.Env(nil), nil, &out, &errOut)
			var rep referee.Report
			if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil || !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v, report %v: %s", err, jerr, out.String())
			}
			if !rep.Interrupted || rep.Games != 0 || rep.Mode != mode {
				t.Errorf("report %+v", rep)
			}
		})
	}
}

// TestPlayerNames: -bot and -opponent read the players' one grammar
// (battleship/players): a label names the player in the report, and the
// engine's other names are "self".
func TestPlayerNames(t *testing.T) {
	rep, _ := runJSON(t, "-mode", "duel-inproc", "-bot", "me=engine", "-opponent", "old=dg", "-n", "2", "-w", "6", "-h", "6", "-fleet", "0,1,1,0,0,0")
	if rep.Bot != "me" || rep.Opponent != "old" || rep.Games != 2 {
		t.Errorf("report %+v", rep)
	}
}
