package battleship

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMarginals enumerates every fleet configuration of r, replays the
// history against it with the arena's own rules, and returns the exact
// probability that each cell holds a ship among the consistent ones.
func bruteMarginals(r Rules, hist []Strike) ([]float64, int) {
	lens := r.Fleet.Lengths()
	var all [][]Ship
	var rec func(k int, occ []bool, cur []Ship, minID int)
	rec = func(k int, occ []bool, cur []Ship, minID int) {
		if k == len(lens) {
			all = append(all, append([]Ship(nil), cur...))
			return
		}
		l := lens[k]
		for id := 0; id < r.Cells()*2; id++ {
			if k > 0 && lens[k-1] == l && id <= minID {
				continue
			}
			c, vert := id/2, id%2 == 1
			if l == 1 && vert {
				continue
			}
			s := Ship{X: c % r.W, Y: c / r.W, L: l, Vertical: vert}
			x2, y2 := s.End()
			if x2 >= r.W || y2 >= r.H {
				continue
			}
			cells := shipCells(r, s)
			ok := true
			for _, cc := range cells {
				ok = ok && !occ[cc]
			}
			if !ok {
				continue
			}
			for _, cc := range cells {
				occ[cc] = true
			}
			rec(k+1, occ, append(cur, s), id)
			for _, cc := range cells {
				occ[cc] = false
			}
		}
	}
	rec(0, make([]bool, r.Cells()), nil, -1)
	marg := make([]float64, r.Cells())
	n := 0
	for _, ships := range all {
		a := NewArena(r, ships)
		ok := true
		for _, h := range hist {
			res := ParseResult(a.Shoot(FormatTarget(h.X, h.Y)))
			if res != h.Result {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		n++
		for _, s := range ships {
			for _, c := range shipCells(r, s) {
				marg[c]++
			}
		}
	}
	for i := range marg {
		marg[i] /= float64(max(n, 1))
	}
	for _, h := range hist {
		marg[h.Y*r.W+h.X] = 0
	}
	return marg, n
}

func shipCells(r Rules, s Ship) []int {
	out := make([]int, s.L)
	for i := range s.L {
		if s.Vertical {
			out[i] = (s.Y+i)*r.W + s.X
		} else {
			out[i] = s.Y*r.W + s.X + i
		}
	}
	return out
}

// TestPosteriorMatchesBruteForce: on small boards, the engine's cell
// probabilities (sampling mode) match exact enumeration of every fleet
// configuration consistent with a real game's history, including
// touching ships and sunk results without identity. In histories where
// every ship has been hit, the counting mode is exact too.
func TestPosteriorMatchesBruteForce(t *testing.T) {
	boards := []Rules{
		{W: 5, H: 4, Fleet: fleetOf(0, 1, 1)},
		{W: 4, H: 4, Fleet: fleetOf(1, 2)},
		{W: 6, H: 3, Fleet: fleetOf(0, 1, 0, 1)},
	}
	rng := rand.New(rand.NewPCG(21, 12))
	checked := 0
	for _, r := range boards {
		for game := range 4 {
			ships, err := Place(r, rng, PlaceOptions{Touch: 0.9})
			if err != nil {
				t.Fatal(err)
			}
			a := NewArena(r, ships)
			var hist []Strike
			for a.Remaining() > 0 {
				exact, n := bruteMarginals(r, hist)
				if n == 0 {
					t.Fatalf("%+v game %d: no configuration explains %v", r, game, hist)
				}
				got := probabilities(r, hist, rng, TargetOptions{Samples: 20_000, MaxWork: 1 << 40})
				if got == nil {
					t.Fatalf("%+v: engine found no explanation of %v", r, hist)
				}
				for c := range exact {
					if math.Abs(got[c]-exact[c]) > 0.03 {
						t.Fatalf("%+v game %d after %v: cell %d,%d engine %.3f exact %.3f (%d configs)",
							r, game, hist, c%r.W, c/r.W, got[c], exact[c], n)
					}
				}
				checked++
				x, y := NextShot(r, hist, rng, TargetOptions{})
				hist = append(hist, Strike{X: x, Y: y, OK: true, Result: ParseResult(a.Shoot(FormatTarget(x, y)))})
			}
		}
	}
	t.Logf("%d positions checked", checked)
}
