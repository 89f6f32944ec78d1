package agents

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/battleship"
)

// TestDensityShot: the textbook shooter stays on unshot cells and finishes
// off a known hit.
func TestDensityShot(t *testing.T) {
	densityShot := func(r battleship.Rules, hist []battleship.Strike, rng *rand.Rand) (int, int) {
		return dgAgent{}.NewGame("test", r, rng).Shoot(hist, nil)
	}
	r := battleship.Rules{W: 5, H: 5, Fleet: battleship.Fleet{0, 0, 1}}
	rng := rand.New(rand.NewPCG(1, 2))
	hist := []battleship.Strike{
		{X: 2, Y: 2, OK: true, Result: battleship.Hit},
		{X: 1, Y: 2, OK: true, Result: battleship.Miss},
		{X: 3, Y: 2, OK: true, Result: battleship.Miss},
		{X: 2, Y: 1, OK: true, Result: battleship.Miss},
	}
	if x, y := densityShot(r, hist, rng); x != 2 || y != 3 {
		t.Errorf("shot %d,%d, want 2,3 (the only neighbour of the hit left)", x, y)
	}
	// Every cell but one shot: that one.
	hist = hist[:0]
	for c := range 25 {
		if c != 17 {
			hist = append(hist, battleship.Strike{X: c % 5, Y: c / 5, OK: true})
		}
	}
	if x, y := densityShot(r, hist, rng); x != 2 || y != 3 {
		t.Errorf("shot %d,%d, want the last unshot cell 2,3", x, y)
	}
}
