// Package handtest gives tests the hands an oracle test walks: every
// hand of five cards (what the bidding sees) and a fixed sample of hands
// of every other size.
package handtest

import (
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
)

// Each calls f with every hand of 5 cards, then with 200,000 hands of 1
// to 8 cards drawn from a fixed seed.
func Each(f func(giretra.Set)) {
	var rec func(from int, h giretra.Set, left int)
	rec = func(from int, h giretra.Set, left int) {
		if left == 0 {
			f(h)
			return
		}
		for c := from; c <= 32-left; c++ {
			rec(c+1, h|giretra.Card(c).Bit(), left-1)
		}
	}
	rec(0, 0, 5)
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var h giretra.Set
		for range 1 + r.IntN(8) {
			h |= giretra.Card(r.IntN(32)).Bit()
		}
		f(h)
	}
}
