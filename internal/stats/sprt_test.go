package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSPRTDecides: samples from a player 60 Elo stronger accept H1 of
// (0, 30), samples from an equal one accept H0, each long before 2000
// matches, and the bounds are those of α = β = 0.05.
func TestSPRTDecides(t *testing.T) {
	test := EloSPRT(0, 30, 0.05, 0.05)
	lo, hi := test.Bounds()
	if lo > -2.94 || lo < -2.95 || hi < 2.94 || hi > 2.95 {
		t.Fatalf("bounds %.3f, %.3f, want ∓2.944", lo, hi)
	}
	for _, tc := range []struct {
		elo  float64
		want Verdict
	}{{60, AcceptH1}, {-30, AcceptH0}, {0, AcceptH0}} {
		rng := rand.New(rand.NewPCG(1, uint64(tc.elo+100)))
		p := EloExpected(tc.elo, 0)
		var scores []float64
		v := Continue
		for v == Continue && len(scores) < 20000 {
			// 30% draws, wins and losses in the shares that make the
			// expected score p.
			r := rng.Float64()
			switch {
			case r < 0.3:
				scores = append(scores, 0.5)
			case r < 0.3+p-0.15:
				scores = append(scores, 1)
			default:
				scores = append(scores, 0)
			}
			_, v = test.Test(scores)
		}
		if v != tc.want {
			t.Errorf("Elo %+.0f: %v after %d matches, want %v", tc.elo, v, len(scores), tc.want)
		}
	}
	if llr, v := test.Test([]float64{1}); llr != 0 || v != Continue {
		t.Errorf("one match: %v %v", llr, v)
	}
	// A run of wins has no spread of its own, and still decides.
	wins := []float64{1, 1}
	for len(wins) < 200 {
		if _, v := test.Test(wins); v != Continue {
			break
		}
		wins = append(wins, 1)
	}
	if _, v := test.Test(wins); v != AcceptH1 || len(wins) < 10 {
		t.Errorf("%d straight wins: %v", len(wins), v)
	}
}

// TestSPRTOnMeans: the two guards against a sample without spread, and
// the test of a mean difference against a margin either way.
func TestSPRTOnMeans(t *testing.T) {
	better := SPRT{Mu0: 0, Mu1: 0.1, Alpha: 0.05, Beta: 0.05, MinVariance: 0.01}
	worse := better
	worse.Mu1 = -0.1
	tests := []struct {
		name        string
		xs          []float64
		test        SPRT
		wantLLR     float64
		wantVerdict Verdict
	}{
		// Four equal differences: the floor, 0.01, is the variance.
		{"floor", []float64{1, 1, 1, 1}, better, 4 * 0.1 * (2 - 0.1) / (2 * 0.01), AcceptH1},
		{"floor, the other side", []float64{1, 1, 1, 1}, worse, 4 * -0.1 * (2 + 0.1) / (2 * 0.01), AcceptH0},
		// Mean 0, sample variance 4/3: well inside the bounds.
		{"spread", []float64{1, -1, 1, -1}, better, 4 * 0.1 * -0.1 / (2 * 4.0 / 3), Continue},
		// Scores 1, 1 with the prior of a win and a loss: variance
		// (0 + 1 + 0) / 3.
		{"prior", []float64{1, 1}, SPRT{Mu0: 0.5, Mu1: 0.6, Alpha: 0.05, Beta: 0.05, Hi: 1}, 2 * 0.1 * (2 - 1.1) / (2 * 1.0 / 3), Continue},
		{"one observation", []float64{1}, better, 0, Continue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			llr, v := tt.test.Test(tt.xs)
			if math.Abs(llr-tt.wantLLR) > 1e-9 || v != tt.wantVerdict {
				t.Errorf("LLR %v, %v; want %v, %v", llr, v, tt.wantLLR, tt.wantVerdict)
			}
		})
	}
}
