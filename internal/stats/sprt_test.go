package stats

import (
	"math/rand/v2"
	"testing"
)

// TestSPRTDecides: samples from a player 60 Elo stronger accept H1 of
// (0, 30), samples from an equal one accept H0, each long before 2000
// matches, and the bounds are those of α = β = 0.05.
func TestSPRTDecides(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.05}
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
