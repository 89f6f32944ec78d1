package search

import (
	"math/bits"
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
)

// Sample deals the unseen cards to the other three seats consistently with
// k: each seat gets exactly Count cards, none from its Excl set. Hints
// tilt the choice towards the cards a seat is likely to hold. When the
// constraints cannot be met (inconsistent input), they are dropped step
// by step, so Sample always fills hands with the right counts when the
// counts add up; ok is false only if they do not.
//
// hands[k.Seat] is k.Hand. It does not allocate.
func (k *Knowledge) Sample(rng *rand.Rand, hands *[4]giretra.Set) (ok bool) {
	var allowed [4]giretra.Set
	var need [4]int
	unseen := k.Unseen()
	total := 0
	for p := range giretra.Position(4) {
		hands[p] = 0
		if p == k.Seat {
			// The seat itself may have cards still to come (bidding).
			hands[p] = k.Hand
			need[p] = max(k.Count[p]-k.Hand.Count(), 0)
		} else {
			need[p] = k.Count[p]
		}
		if need[p] > 0 {
			allowed[p] = unseen &^ k.Excl[p]
		}
		total += need[p]
	}
	if total != unseen.Count() {
		return false
	}
	if !feasible(unseen, &allowed, &need) {
		// Drop the inferred constraints (they came from inconsistent input).
		for p := range giretra.Position(4) {
			if need[p] > 0 {
				allowed[p] = unseen
			}
		}
	}
	k.fill(rng, unseen, &allowed, &need, hands)
	return true
}

// feasible checks Hall's condition: every subset S of seats can be given
// need(S) cards from the union of their allowed sets.
func feasible(rem giretra.Set, allowed *[4]giretra.Set, need *[4]int) bool {
	for mask := 1; mask < 16; mask++ {
		var u giretra.Set
		req := 0
		for i := range 4 {
			if mask&(1<<i) != 0 {
				u |= allowed[i]
				req += need[i]
			}
		}
		if req > 0 && (u&rem).Count() < req {
			return false
		}
	}
	return true
}

// fill assigns the cards of rem one by one, most constrained first, each to
// a seat drawn in proportion to its remaining need (times a hint bonus),
// keeping Hall's condition true after every step.
func (k *Knowledge) fill(rng *rand.Rand, rem giretra.Set, allowed *[4]giretra.Set, need *[4]int, hands *[4]giretra.Set) {
	for rem != 0 {
		// Pick the card with the fewest candidate seats; ties at random.
		best, bestN, ties := giretra.NoCard, 5, 0
		for x := uint32(rem); x != 0; x &= x - 1 {
			c := giretra.Card(bits.TrailingZeros32(x))
			cnt := 0
			for p := range 4 {
				if need[p] > 0 && allowed[p].Has(c) {
					cnt++
				}
			}
			if cnt < bestN {
				best, bestN, ties = c, cnt, 1
			} else if cnt == bestN {
				ties++
				if rng.IntN(ties) == 0 {
					best = c
				}
			}
		}
		c := best
		var w [4]int
		sum := 0
		for p := range 4 {
			if need[p] == 0 || (bestN > 0 && !allowed[p].Has(c)) {
				continue
			}
			w[p] = need[p] * 4
			if k.Hint[p].Has(c) {
				w[p] *= 3
			}
			sum += w[p]
		}
		rem = rem.Without(c)
		assigned := false
		for sum > 0 {
			r := rng.IntN(sum)
			p := 0
			for ; p < 3; p++ { // p == 3 when r falls in w[3]
				if r < w[p] {
					break
				}
				r -= w[p]
			}
			need[p]--
			if feasible(rem, allowed, need) {
				hands[p] |= c.Bit()
				assigned = true
				break
			}
			need[p]++
			sum -= w[p]
			w[p] = 0
		}
		if !assigned {
			// Cannot happen while Hall's condition holds; give the card to
			// any seat with room so the counts stay right.
			for p := range 4 {
				if need[p] > 0 {
					need[p]--
					hands[p] |= c.Bit()
					break
				}
			}
		}
	}
}
