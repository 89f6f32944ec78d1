package agents

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// TestNoisy: at rate 0 the wrapped player's choice, at rate 1 a uniform
// pick of the offered cards, and near the rate in between.
func TestNoisy(t *testing.T) {
	hs := giretra.HandState{Mode: giretra.NoTrumps, Current: giretra.NewTrick(giretra.Bottom)}
	ms := giretra.NewMatchState(151, giretra.Right)
	hand := giretra.MustParseCards("7C 8C 9C TC JC QC KC AC")
	v := &giretra.PlayView{Seat: giretra.Bottom, Hand: hand, State: &hs, Match: &ms, Valid: hand}
	own, _ := NewEva().ChooseCard(context.Background(), v)
	for _, tc := range []struct {
		eps      float64
		lo, hi   int // own choices out of 1000
		distinct int // at least this many different cards
	}{{0, 1000, 1000, 1}, {0.1, 880, 940, 2}, {1, 80, 170, 8}} {
		n := NewNoisy(NewEva(), tc.eps, rand.New(rand.NewPCG(3, 4)))
		same, seen := 0, map[giretra.Card]bool{}
		for range 1000 {
			c, err := n.ChooseCard(context.Background(), v)
			if err != nil || !hand.Has(c) {
				t.Fatalf("eps %v: %v %v", tc.eps, c, err)
			}
			if c == own {
				same++
			}
			seen[c] = true
		}
		if same < tc.lo || same > tc.hi || len(seen) < tc.distinct {
			t.Errorf("eps %v: own card %d times of 1000, %d distinct cards", tc.eps, same, len(seen))
		}
	}
}
