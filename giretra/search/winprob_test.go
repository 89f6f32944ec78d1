package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWinTableProperties: equal teams are even at equal scores, the table
// is antisymmetric (P(a,b) + P(b,a) = 1, the outcomes being counted from
// both sides), and more points never hurt.
func TestWinTableProperties(t *testing.T) {
	for _, target := range []int{151, 500} {
		w := WinTableFor(target)
		for a := 0; a < target; a += 7 {
			for b := 0; b < target; b += 11 {
				p, q := w.P(a, b), w.P(b, a)
				if math.Abs(p+q-1) > 1e-4 {
					t.Fatalf("target %d: P(%d,%d) %.5f + P(%d,%d) %.5f ≠ 1", target, a, b, p, b, a, q)
				}
				if a+16 < target && w.P(a+16, b) < p-1e-6 {
					t.Fatalf("target %d: P(%d,%d) %.4f > P(%d,%d)", target, a, b, p, a+16, b)
				}
			}
			if p := w.P(a, a); math.Abs(p-0.5) > 1e-4 {
				t.Fatalf("target %d: P(%d,%d) = %.4f", target, a, a, p)
			}
		}
		if v := w.Value([2]int{0, 0}, 16, 0); math.Abs(v-16) > 1e-3 {
			t.Errorf("target %d: 16 points at 0-0 worth %.3f, want 16 (the scale)", target, v)
		}
		// In a close finish a deal decides the match: its points are worth
		// more than at the start.
		if w.Value([2]int{target - 11, target - 21}, 16, 0) <= 2*w.Value([2]int{0, 0}, 16, 0) {
			t.Errorf("target %d: 16 points in a close finish worth %.1f, at the start %.1f", target,
				w.Value([2]int{target - 11, target - 21}, 16, 0), w.Value([2]int{0, 0}, 16, 0))
		}
	}
}

// TestWinTableMatchesSimulation is an oracle test: the dynamic programme
// agrees with playing the deals out at random from the same distribution,
// resets of the target included.
func TestWinTableMatchesSimulation(t *testing.T) {
	oc := dealOutcomes()
	cum := make([]float64, len(oc))
	acc := 0.0
	for i, o := range oc {
		acc += o.p
		cum[i] = acc
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const target, games = 151, 40000
	w := WinTableFor(target)
	for _, start := range [][2]int{{0, 0}, {120, 60}, {60, 140}, {145, 140}} {
		wins := 0
		for range games {
			a, b, tg := start[0], start[1], target
			for {
				r := rng.Float64()
				i := 0
				for i < len(cum)-1 && cum[i] < r {
					i++
				}
				a, b = a+oc[i].us, b+oc[i].them
				if a >= tg && b >= tg {
					tg += resetStep
					continue
				}
				if a >= tg {
					wins++
					break
				}
				if b >= tg {
					break
				}
			}
		}
		got, want := float64(wins)/games, w.P(start[0], start[1])
		if math.Abs(got-want) > 0.01 { // 4 standard errors at 40,000 games
			t.Errorf("from %v: simulated %.4f, table %.4f", start, got, want)
		}
	}
}

// TestWinTableEdge: the tilted distribution has the asked mean margin; a
// favourite's table is the underdog's seen from the other side, a bigger
// edge wins more often, and a deal's variance costs the favourite: an
// even gamble of ±26 points is worth less than nothing to it at 0–0.
func TestWinTableEdge(t *testing.T) {
	for _, edge := range []int{-8, 4, 8, 20} {
		m := 0.0
		for _, o := range tilted(dealOutcomes(), edge) {
			m += o.p * float64(o.us-o.them)
		}
		if math.Abs(m-float64(edge)) > 1e-6 {
			t.Errorf("edge %d: tilted mean margin %.6f", edge, m)
		}
	}
	const target = 151
	fav, dog := WinTableWithEdge(target, 8), WinTableWithEdge(target, -8)
	for a := 0; a < target; a += 13 {
		for b := 0; b < target; b += 17 {
			if p, q := fav.P(a, b), dog.P(b, a); math.Abs(p+q-1) > 1e-4 {
				t.Fatalf("P+8(%d,%d) %.5f + P−8(%d,%d) %.5f ≠ 1", a, b, p, b, a, q)
			}
		}
	}
	prev := 0.0
	for _, edge := range []int{-8, 0, 4, 8, 20} {
		p := WinTableWithEdge(target, edge).P(0, 0)
		if p <= prev {
			t.Fatalf("edge %d: P(0,0) = %.4f, not above %.4f", edge, p, prev)
		}
		prev = p
	}
	if gamble := fav.Value([2]int{0, 0}, 26, 0) + fav.Value([2]int{0, 0}, 0, 26); gamble >= 0 {
		t.Errorf("an even ±26 gamble at 0–0 is worth %+.3f to a favourite, want < 0", gamble)
	}
	if WinTableWithEdge(target, 100) != WinTableWithEdge(target, MaxEdge) {
		t.Error("an edge beyond MaxEdge is not clamped")
	}
}
