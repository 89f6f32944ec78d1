package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/cli"
)

func runStrength(ctx context.Context, args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	err := run(ctx, args, cli.Env(nil), nil, &out, &errb)
	return out.String(), errb.String(), err
}

func TestRunReports(t *testing.T) {
	args := []string{"-me", "calculating", "-opp", "random", "-n", "4", "-concurrency", "2", "-seed", "3"}
	out, stderr, err := runStrength(t.Context(), args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"calculating vs random, target 151, sweep 25, seed 3, 4 matches (0 errors)", "Wilson 95%, Elo", "match points per deal", "latency card"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// The same seed plays the same matches, whatever the concurrency.
	again, _, err := runStrength(t.Context(), append(args[:len(args)-4], "-concurrency", "1", "-seed", "3")...)
	if err != nil {
		t.Fatal(err)
	}
	result := regexp.MustCompile(`\d+ wins = .*Elo.*`)
	if a, b := result.FindString(out), result.FindString(again); a == "" || a != b {
		t.Errorf("runs differ: %q / %q", a, b)
	}
}

func TestSeedZeroIsDrawnAndPrinted(t *testing.T) {
	out, stderr, err := runStrength(t.Context(), "-me", "random", "-opp", "random", "-n", "1", "-seed", "0")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`giretra-strength: seed (\d+)\n`).FindStringSubmatch(stderr)
	if m == nil || m[1] == "0" || !strings.Contains(out, "seed "+m[1]+",") {
		t.Errorf("stderr %q, report %q: want the drawn seed in both", stderr, out)
	}
}

func TestInterruptedRunStillReports(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	out, _, err := runStrength(ctx, "-me", "random", "-opp", "random", "-n", "5")
	if !errors.Is(err, context.Canceled) || !strings.Contains(out, "interrupted: 0 of 5 matches finished") || !strings.Contains(out, "Wilson 95%") {
		t.Errorf("err %v, report:\n%s", err, out)
	}
}

func TestBadArguments(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // in the error
	}{
		{[]string{"-n", "0"}, "-n"},
		{[]string{"-concurrency", "0"}, "-concurrency"},
		{[]string{"-opp", "nobody"}, `"nobody"`},
		{[]string{"-me", "nobody"}, `"nobody"`},
		{[]string{"-j", "2"}, "-j"},
		{[]string{"extra"}, "extra"},
		{[]string{"-cpuprofile", "/nonexistent/dir/cpu.pprof"}, "cpu.pprof"},
		// A spec that fails loudly rather than measure the default bot.
		{[]string{"-me", "bot:budgte=1s"}, "budgte"},
		{[]string{"-partner", "bot:fats"}, "fats"},
		{[]string{"-opp", "bot:effort=lots"}, "effort=lots"},
		{[]string{"-baseline", "bot:oracle=all"}, "oracle=all"},
		{[]string{"-me", "evabid+eva"}, "evabid+"},
	} {
		out, _, err := runStrength(t.Context(), tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || out != "" {
			t.Errorf("%q: err %v, want one naming %s, nothing played:\n%s", tt.args, err, tt.want, out)
		}
	}
}

// TestDuplicatePairsShareDeals: in a duplicate run, the two matches of a
// pair are dealt the same cards (the same first deal's hands, seats
// swapped), and the report counts pairs.
func TestDuplicatePairsShareDeals(t *testing.T) {
	out, stderr, err := runStrength(t.Context(), "-me", "calculating", "-opp", "random", "-n", "4", "-duplicate", "-seed", "5")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !regexp.MustCompile(`duplicate: 2 pairs: \d won, \d split, \d lost; .*margin per deal`).MatchString(out) {
		t.Errorf("no duplicate summary:\n%s", out)
	}
}

// TestOracleAndPartnerSpecs: the oracle players and a mixed team run.
func TestOracleAndPartnerSpecs(t *testing.T) {
	for _, args := range [][]string{
		{"-me", "bot:fast:oracle=full", "-opp", "random"},
		{"-me", "bot:effort=0.1:oracle=partner", "-opp", "random"},
		{"-me", "bot:fast", "-partner", "eva", "-opp", "noisy-eva"},
	} {
		out, stderr, err := runStrength(t.Context(), append(args, "-n", "2", "-seed", "9")...)
		if err != nil || !strings.Contains(out, "2 matches (0 errors)") {
			t.Errorf("%v: %v\n%s%s", args, err, out, stderr)
		}
	}
}

// TestBaselinePairs: -baseline plays the other player on the same deals
// and reports the paired difference; a player against itself differs by
// nothing.
func TestBaselinePairs(t *testing.T) {
	out, stderr, err := runStrength(t.Context(), "-me", "calculating", "-baseline", "calculating", "-opp", "random", "-n", "4", "-duplicate", "-seed", "8")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "paired calculating − calculating over 2 pairs on the same deals: wins +0.0% [+0.0, +0.0], margin per deal +0.00 [+0.00, +0.00]") {
		t.Errorf("paired report:\n%s", out)
	}
}

// TestContractsBySeat: over a few matches, the contracts of the team under
// test are split between its player and its partner, both announce, and
// me, ptnr and opp add up to the deals played.
func TestContractsBySeat(t *testing.T) {
	out, stderr, err := runStrength(t.Context(), "-me", "bot:fast", "-partner", "eva", "-opp", "eva", "-n", "6", "-seed", "5")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	line := regexp.MustCompile(`(?m)^contracts (me|ptnr|opp|team) +\S+ x\d+ +n= *(\d+) `)
	n := map[string]int{}
	for _, m := range line.FindAllStringSubmatch(out, -1) {
		k, _ := strconv.Atoi(m[2])
		n[m[1]] += k
	}
	if n["me"] == 0 || n["ptnr"] == 0 || n["team"] != 0 {
		t.Errorf("contracts by announcer %v, want both me and ptnr, no team fallback:\n%s", n, out)
	}
	deals := regexp.MustCompile(`\((\d+) deals\)`).FindStringSubmatch(out)
	if deals == nil {
		t.Fatalf("no deal count:\n%s", out)
	}
	if total := fmt.Sprint(n["me"] + n["ptnr"] + n["opp"]); total != deals[1] {
		t.Errorf("contracts add up to %s, deals %s:\n%s", total, deals[1], out)
	}
}

// TestCPUProfile: -cpuprofile writes a profile pprof can read (gzipped
// protocol buffers).
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	if _, stderr, err := runStrength(t.Context(), "-me", "bot:fast", "-opp", "random", "-n", "2", "-cpuprofile", path); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile of %d bytes is not gzipped", len(b))
	}
}

// TestRecordAndOracle: -record writes one record per match, which
// giretra/record reads back whole; an oracle spec limited to one phase
// is accepted.
func TestRecordAndOracle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rec")
	out, stderr, err := runStrength(t.Context(), "-me", "bot:fast:oracle=full@play", "-opp", "eva", "-duplicate", "-n", "2", "-seed", "5", "-record", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(out, "2 matches (0 errors)") {
		t.Errorf("report:\n%s", out)
	}
	files, err := filepath.Glob(filepath.Join(dir, "strength-*.jsonl"))
	if err != nil || len(files) != 2 {
		t.Fatalf("records %v: %v", files, err)
	}
}
