package referee

import (
	"encoding/json"
	"strings"
	"testing"
)

// compareOf is giretra-ref compare's defaults: target 151 here, a Colour
// sweep worth 25 × the multiplier, margin 0.1, α = β = 0.05, at least 16
// deal sequences.
func compareOf(t *testing.T, baseline, candidate string, maxPairs int, seed int64, opponents ...string) CompareConfig {
	c := CompareConfig{Setup: setup(t), Baseline: baseline, Candidate: candidate, Opponents: opponents, MaxPairs: maxPairs,
		Margin: 0.1, Alpha: 0.05, Beta: 0.05, MinPairs: 16}
	c.Sweep, c.Seed, c.Seeded = 25, seed, true
	return c
}

// compare tells eva from random quickly, in both directions, and finds
// two equal players the same.
func TestCompare(t *testing.T) {
	tests := []struct {
		baseline, candidate string
		opponents           []string
		verdict             string
	}{
		{"random", "eva", nil, VerdictBetter},
		{"eva", "random", nil, VerdictWorse},
		{"eva", "eva", []string{"random"}, VerdictSame},
	}
	for _, tt := range tests {
		t.Run(tt.candidate+" over "+tt.baseline+" "+strings.Join(tt.opponents, ","), func(t *testing.T) {
			rep, err := Compare(t.Context(), compareOf(t, tt.baseline, tt.candidate, 60, 2, tt.opponents...))
			if err != nil || rep.Aborted != "" {
				t.Fatalf("err %v, aborted %q", err, rep.Aborted)
			}
			if rep.Verdict != tt.verdict {
				t.Errorf("verdict %s (%+v)", rep.Verdict, rep.Paired)
			}
			if rep.Paired.Pairs < 16 || rep.Paired.Pairs >= 60 && rep.Verdict != VerdictInconclusive {
				t.Errorf("%d deal sequences for %s", rep.Paired.Pairs, rep.Verdict)
			}
			if want := rep.Paired.Pairs * 2 * max(1, len(rep.Opponents)) * (1 + min(1, len(rep.Opponents))); rep.Matches != want {
				t.Errorf("%d matches for %d sequences, want %d", rep.Matches, rep.Paired.Pairs, want)
			}
		})
	}
	// The same seed, the same verdict after the same sequences, at any concurrency.
	var outs [2]string
	for i := range outs {
		c := compareOf(t, "calculating", "eva", 500, 9)
		c.Concurrency = i + 1
		rep, err := Compare(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		rep.Seconds = 0
		b, _ := json.Marshal(rep)
		outs[i] = string(b)
	}
	if outs[0] != outs[1] {
		t.Errorf("concurrency changed the result:\n%s\n%s", outs[0], outs[1])
	}
}

func TestSequential(t *testing.T) {
	s := newSequential(0.1, 0.05, 0.05, 4)
	// All +1: better as soon as allowed.
	ds := []float64{}
	v := ""
	for v == "" && len(ds) < 100 {
		ds = append(ds, 1)
		v = s.step(ds)
	}
	if v != VerdictBetter || len(ds) != 4 {
		t.Errorf("all +1: %q after %d", v, len(ds))
	}
	// Alternating ±1 (mean 0, variance 1): eventually the same.
	s = newSequential(0.2, 0.05, 0.05, 4)
	ds, v = nil, ""
	for v == "" && len(ds) < 2000 {
		ds = append(ds, float64(1-2*(len(ds)%2)))
		v = s.step(ds)
	}
	if v != VerdictSame {
		t.Errorf("mean 0: %q after %d", v, len(ds))
	}
}
