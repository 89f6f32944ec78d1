package referee

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestSwissPairing(t *testing.T) {
	mk := func(name string, w, l, b int, elo float64) *participant {
		return &participant{Name: name, Wins: w, Losses: l, Byes: b, Elo: elo}
	}
	names := func(pairs [][2]*participant, bye *participant) string {
		var s []string
		for _, p := range pairs {
			s = append(s, p[0].Name+"-"+p[1].Name)
		}
		if bye != nil {
			s = append(s, "bye "+bye.Name)
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		ps   []*participant
		want string
	}{
		// Round 1: list order; with three, the bye to the first listed.
		{[]*participant{mk("A", 0, 0, 0, 1200), mk("B", 0, 0, 0, 1200), mk("C", 0, 0, 0, 1200), mk("D", 0, 0, 0, 1200)}, "A-B C-D"},
		{[]*participant{mk("A", 0, 0, 0, 1200), mk("B", 0, 0, 0, 1200), mk("C", 0, 0, 0, 1200)}, "B-C bye A"},
		// Points, then Elo; no repeat avoidance.
		{[]*participant{mk("A", 0, 1, 0, 1190), mk("B", 1, 0, 0, 1210), mk("C", 1, 0, 0, 1205), mk("D", 0, 1, 0, 1195)}, "B-C D-A"},
		// The bye: fewest byes, then fewest points, then lowest Elo.
		{[]*participant{mk("A", 1, 0, 1, 1200), mk("B", 1, 1, 0, 1210), mk("C", 0, 1, 0, 1190)}, "A-B bye C"},
		{[]*participant{mk("A", 2, 0, 0, 1200), mk("B", 1, 0, 1, 1210), mk("C", 1, 1, 0, 1190)}, "B-A bye C"},
	}
	for i, tt := range tests {
		if got := names(pairRound(tt.ps)); got != tt.want {
			t.Errorf("case %d: %s, want %s", i, got, tt.want)
		}
	}
}

func TestSwissK(t *testing.T) {
	// The values the research note computed from the engine's formula.
	for _, tt := range []struct {
		n    int
		want float64
	}{{0, 40}, {10, 31}, {20, 25.6}, {30, 22}, {60, 16}, {100, 12.31}, {200, 8.70}, {500, 6.04}, {1000, 5.05}} {
		if got := effectiveK(40, 4, tt.n, 30); math.Abs(got-tt.want) > 0.01 {
			t.Errorf("K(%d) = %.3f, want %.2f", tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct {
		w, l int
		want float64
	}{{1000, 0, 1}, {1000, 500, 0.75}, {1000, 800, 0.6}, {1000, 950, 0.525}, {1300, 0, 1}} {
		if got := marginScore(tt.w, tt.l, 1000); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("margin(%d, %d) = %v, want %v", tt.w, tt.l, got, tt.want)
		}
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

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`run  "a b" c\"d ""`, []string{"run", "a b", `c"d`, ""}},
		{"", nil},
		{"build -trimpath -o bin/gamebot ./cmd/gamebot", []string{"build", "-trimpath", "-o", "bin/gamebot", "./cmd/gamebot"}},
	}
	for _, tt := range tests {
		if got := SplitArgs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
