package stats

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestWilson(t *testing.T) {
	tests := []struct {
		name   string
		k, n   int
		lo, hi float64
		tol    float64
	}{
		// The Giretra spec quotes Eva vs Calculating 85.8% [83.5-87.8].
		{"spec 858/1000", 858, 1000, 0.835, 0.878, 0.0005},
		{"spec 970/1000", 970, 1000, 0.957, 0.979, 0.0005},
		{"no trials", 0, 0, 0, 1, 0},
		{"all lost", 0, 10, 0, 0.2775, 0.0001},
		{"all won", 10, 10, 0.7225, 1, 0.0001},
		{"half", 50, 100, 0.4038, 0.5962, 0.0001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Wilson(tt.k, tt.n)
			if !near(lo, tt.lo, tt.tol) || !near(hi, tt.hi, tt.tol) {
				t.Errorf("Wilson(%d, %d) = %.4f, %.4f; want %.4f, %.4f", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestPValue(t *testing.T) {
	tests := []struct {
		k, n int
		want float64
	}{
		{0, 0, 1},
		{500, 1000, 1},
		{531, 1000, 0.0499},
		{550, 1000, 0.0016},
		{469, 1000, 0.0499}, // two-tailed: symmetric
		{10, 10, 0.0016},
	}
	for _, tt := range tests {
		if got := PValue(tt.k, tt.n); !near(got, tt.want, 0.0001) {
			t.Errorf("PValue(%d, %d) = %.4f, want %.4f", tt.k, tt.n, got, tt.want)
		}
	}
}

func TestElo(t *testing.T) {
	expected := []struct{ ra, rb, want float64 }{
		{1300, 1200, 0.6401},
		{1200, 1300, 0.3599},
		{1200, 1200, 0.5},
		{1600, 1200, 0.9091},
	}
	for _, tt := range expected {
		if got := EloExpected(tt.ra, tt.rb); !near(got, tt.want, 0.0001) {
			t.Errorf("EloExpected(%v, %v) = %.4f, want %.4f", tt.ra, tt.rb, got, tt.want)
		}
	}
	updates := []struct{ ra, rb, sa, k, wantA, wantB float64 }{
		{1200, 1200, 1, 24, 1212, 1188},
		{1200, 1200, 0, 24, 1188, 1212},
		{1200, 1200, 0.5, 24, 1200, 1200},
		{1300, 1200, 1, 32, 1311.5179, 1188.4821},
	}
	for _, tt := range updates {
		a, b := EloUpdate(tt.ra, tt.rb, tt.sa, tt.k)
		if !near(a, tt.wantA, 0.0001) || !near(b, tt.wantB, 0.0001) {
			t.Errorf("EloUpdate(%v, %v, %v, %v) = %.4f, %.4f; want %.4f, %.4f", tt.ra, tt.rb, tt.sa, tt.k, a, b, tt.wantA, tt.wantB)
		}
	}
	diffs := []struct{ p, want float64 }{
		{0.5, 0},
		{0.6401, 100},
		{0.75, 190.8485},
		{0.25, -190.8485},
		{1, MaxEloDiff},
		{0, -MaxEloDiff},
		{1.2, MaxEloDiff},
		{-0.1, -MaxEloDiff},
		{0.9999999, MaxEloDiff},
		{math.NaN(), 0},
	}
	for _, tt := range diffs {
		if got := EloDiff(tt.p); !near(got, tt.want, 0.05) {
			t.Errorf("EloDiff(%v) = %.4f, want %.4f", tt.p, got, tt.want)
		}
	}
	if d := EloDiff(0.5); math.Signbit(d) {
		t.Error("EloDiff(0.5) is -0")
	}
	// EloDiff inverts EloExpected.
	for _, d := range []float64{-500, -37, 0, 12, 250} {
		if got := EloDiff(EloExpected(d, 0)); !near(got, d, 1e-9) {
			t.Errorf("EloDiff(EloExpected(%v)) = %v", d, got)
		}
	}
}

func TestEloInterval(t *testing.T) {
	tests := []struct {
		name          string
		k, n          int
		diff, lo, hi  float64
		tolDiff, tolI float64
	}{
		{"spec 858/1000", 858, 1000, 312.5, 281.7, 343.3, 0.1, 0.1},
		{"even", 50, 100, 0, -67.7, 67.7, 1e-9, 0.1},
		{"no games", 0, 0, 0, -MaxEloDiff, MaxEloDiff, 0, 0},
		{"all won", 10, 10, MaxEloDiff, 166.2, MaxEloDiff, 0, 0.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, lo, hi := EloInterval(tt.k, tt.n)
			if !near(d, tt.diff, tt.tolDiff) || !near(lo, tt.lo, tt.tolI) || !near(hi, tt.hi, tt.tolI) {
				t.Errorf("EloInterval(%d, %d) = %.1f [%.1f, %.1f], want %.1f [%.1f, %.1f]", tt.k, tt.n, d, lo, hi, tt.diff, tt.lo, tt.hi)
			}
		})
	}
}

func TestMeanCI(t *testing.T) {
	tests := []struct {
		name       string
		xs         []float64
		mean, se   float64
		lo, hi     float64
		wantN      int
		tolerances float64
	}{
		{"empty", nil, 0, 0, 0, 0, 0, 0},
		{"one value", []float64{4}, 4, 0, 4, 4, 1, 0},
		// Two values: t with one degree of freedom, 12.706.
		{"two values", []float64{1, 3}, 2, 1, 2 - 12.706205, 2 + 12.706205, 2, 1e-6},
		// 1..10: sd 3.02765, se 0.957427, t(9) 2.262157.
		{"one to ten", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5.5, 0.957427, 3.334149, 7.665851, 10, 1e-6},
		{"constant", []float64{7, 7, 7}, 7, 0, 7, 7, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := MeanCI(tt.xs)
			if m.N != tt.wantN || !near(m.Mean, tt.mean, tt.tolerances) || !near(m.SE, tt.se, tt.tolerances) ||
				!near(m.Lo, tt.lo, tt.tolerances) || !near(m.Hi, tt.hi, tt.tolerances) {
				t.Errorf("MeanCI(%v) = %+v, want n %d mean %v se %v [%v, %v]", tt.xs, m, tt.wantN, tt.mean, tt.se, tt.lo, tt.hi)
			}
			if !near(m.Half(), (m.Hi-m.Lo)/2, 1e-12) {
				t.Errorf("Half() = %v for %+v", m.Half(), m)
			}
		})
	}
	// Integers are accepted as they are (shots per game).
	if m := MeanCI([]int{40, 44, 48}); m.Mean != 44 || !near(m.SE, 2.309401, 1e-6) {
		t.Errorf("MeanCI(ints) = %+v", m)
	}
}

func TestT975(t *testing.T) {
	// Exact quantiles (numerical integration of Student's density) on
	// both sides of the switch from the table to the expansion.
	tests := []struct {
		df   int
		want float64
	}{
		{1, 12.706205}, {10, 2.228139}, {30, 2.042272},
		{31, 2.039513}, {40, 2.021075}, {60, 2.000298}, {120, 1.979930}, {1000, 1.962339},
	}
	for _, tt := range tests {
		if got := t975(tt.df); !near(got, tt.want, 1e-5) {
			t.Errorf("t975(%d) = %.6f, want %.6f", tt.df, got, tt.want)
		}
	}
	if !math.IsNaN(t975(0)) {
		t.Error("t975(0) is a number")
	}
}

// TestQuantile: nearest rank, clamped, the lower middle value as the
// median of an even count, the zero value of an empty sample.
func TestQuantile(t *testing.T) {
	s := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct {
		q    float64
		want int
	}{{0, 1}, {0.05, 1}, {0.1, 1}, {0.11, 2}, {0.5, 5}, {0.9, 9}, {0.95, 10}, {0.99, 10}, {1, 10}} {
		if got := Quantile(s, c.q); got != c.want {
			t.Errorf("Quantile(1..10, %v) = %d, want %d", c.q, got, c.want)
		}
	}
	if got := Quantile([]float64{2.5}, 0.99); got != 2.5 {
		t.Errorf("Quantile([2.5], 0.99) = %v", got)
	}
	if got := Quantile([]int(nil), 0.5); got != 0 {
		t.Errorf("Quantile(nil) = %d", got)
	}
	// 100 values: p99 is the 99th, not the 100th (0.99·100 must not round up).
	h := make([]int, 100)
	for i := range h {
		h[i] = i + 1
	}
	if got := Quantile(h, 0.99); got != 99 {
		t.Errorf("Quantile(1..100, 0.99) = %d, want 99", got)
	}
}
