package battleship

import (
	"math"
	"math/rand/v2"
	"testing"
)

// checkMap checks a map's own invariants: shot cells are 0, every value is
// a probability, Best is the largest unshot value, and the cell shot is
// Best (or, hunting, within Spread of it).
func checkMap(t *testing.T, r Rules, yours []Strike, m ShotMap) {
	t.Helper()
	if len(m.P) != r.Cells() {
		t.Fatalf("map of %d cells for %dx%d", len(m.P), r.W, r.H)
	}
	shot := make([]bool, r.Cells())
	for _, s := range yours {
		shot[s.Y*r.W+s.X] = true
	}
	best := 0.0
	for c, p := range m.P {
		if p < 0 || p > 1 || math.IsNaN(p) {
			t.Fatalf("P[%d] = %v", c, p)
		}
		if shot[c] && p != 0 {
			t.Fatalf("P[%d] = %v for a cell already shot", c, p)
		}
		if !shot[c] {
			best = max(best, p)
		}
	}
	if best != m.Best {
		t.Fatalf("Best %v, the largest unshot P is %v", m.Best, best)
	}
	if m.Fallback {
		return
	}
	p := m.P[m.Y*r.W+m.X]
	cut := m.Best * (1 - 1e-9)
	if m.Hunting {
		cut = m.Best * (1 - m.Spread - 1e-9)
	}
	if p < cut {
		t.Fatalf("shot %d,%d has P %v, below the cut %v (best %v, hunting %v)", m.X, m.Y, p, cut, m.Best, m.Hunting)
	}
}

// TestExplainIsTheShotPlayed: through whole games, the map Explain gives
// after each PlayTurn names the cell PlayTurn shot, and a twin bot that
// never explains plays the same shots (Explain changes nothing). The last
// game is against an opponent the bot has a prior for, learnt in the
// games before.
func TestExplainIsTheShotPlayed(t *testing.T) {
	for _, r := range []Rules{std10, {W: 7, H: 5, Fleet: fleetOf(3, 2)}, {W: 1, H: 10, Fleet: fleetOf(0, 0, 0, 0, 1)}, {W: 9, H: 9, Fleet: fleetOf(0, 1, 2, 1, 1)}} {
		// One candidate fleet: the bots' own fleets are not played here.
		bot, twin := NewBot(Options{Candidates: 1}), NewBot(Options{Candidates: 1})
		rng := rand.New(rand.NewPCG(uint64(r.W), 5))
		for g := range 3 {
			seed := GameSeed("explain", g)
			if _, err := bot.Init("o", r, seed); err != nil {
				t.Fatal(err)
			}
			twin.Init("o", r, seed)
			a := NewArena(r, RandomFleet(r, rng))
			var yours, his []Strike
			for a.Remaining() > 0 {
				his = append(his, Strike{X: rng.IntN(r.W), Y: rng.IntN(r.H), OK: true})
				x, y := bot.PlayTurn("o", r, yours, his, seed)
				m := bot.Explain("o", r, yours, seed)
				if m.X != x || m.Y != y {
					t.Fatalf("%dx%d game %d shot %d: played %d,%d, explained %d,%d", r.W, r.H, g, len(yours)+1, x, y, m.X, m.Y)
				}
				checkMap(t, r, yours, m)
				if tx, ty := twin.PlayTurn("o", r, yours, his, seed); tx != x || ty != y {
					t.Fatalf("%dx%d game %d shot %d: the twin shot %d,%d, the explained bot %d,%d", r.W, r.H, g, len(yours)+1, tx, ty, x, y)
				}
				yours = append(yours, Strike{X: x, Y: y, OK: true, Result: ParseResult(a.Shoot(FormatTarget(x, y)))})
			}
		}
		learnt := false
		for _, w := range bot.mem.prior(statsKey("o", r), r, nil) {
			learnt = learnt || w != 1
		}
		if !learnt {
			t.Errorf("%dx%d: no prior learnt: the last game did not test Explain with one", r.W, r.H)
		}
	}
}

// TestExplainShotMatchesNextShot: on random histories, consistent or not
// (fallbacks), with and without a prior, ExplainShot shoots where
// NextShot shoots from the same generator state; without a prior its map
// is the posterior the brute-force test checks (probabilities).
func TestExplainShotMatchesNextShot(t *testing.T) {
	gen := rand.New(rand.NewPCG(11, 11))
	r := std10
	prior := make([]float64, r.Cells())
	for c := range prior {
		prior[c] = 0.5 + gen.Float64()
	}
	fallbacks := 0
	for i := range 120 {
		var hist []Strike
		if i%2 == 0 {
			hist = gameHistory(t, r, gen.IntN(40), true, uint64(i))
		} else {
			for range gen.IntN(50) {
				hist = append(hist, Strike{X: gen.IntN(10), Y: gen.IntN(10), OK: true, Result: Result(gen.IntN(3) * gen.IntN(2))})
			}
		}
		opt := TargetOptions{Spread: DefaultSpread}
		if i%3 == 0 {
			opt.Prior = prior
		}
		x, y := NextShot(r, hist, rand.New(rand.NewPCG(uint64(i), 1)), opt)
		m := ExplainShot(r, hist, rand.New(rand.NewPCG(uint64(i), 1)), opt)
		if m.X != x || m.Y != y {
			t.Fatalf("history %d: NextShot %d,%d, ExplainShot %d,%d", i, x, y, m.X, m.Y)
		}
		if m.Fallback {
			fallbacks++
			continue
		}
		checkMap(t, r, hist, m)
		if opt.Prior != nil {
			continue
		}
		want := probabilities(r, hist, rand.New(rand.NewPCG(uint64(i), 1)), opt)
		for c := range want {
			if math.Abs(want[c]-m.P[c]) > 1e-9 {
				t.Fatalf("history %d cell %d: map %v, posterior %v", i, c, m.P[c], want[c])
			}
		}
	}
	if fallbacks == 0 {
		t.Error("no fallback among the random histories: that path was not tested")
	}
}
