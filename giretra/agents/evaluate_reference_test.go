package agents

import (
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/internal/handtest"
)

// TestEvaluateReference: evaluate, on HandTricks, rates every hand
// exactly as Eva's evaluate did in one piece, kept here as the oracle:
// Eva's bids must not move.
func TestEvaluateReference(t *testing.T) {
	if testing.Short() {
		t.Skip("every hand of five cards")
	}
	bad := 0
	handtest.Each(func(h giretra.Set) {
		for m := range giretra.Mode(6) {
			for _, starter := range []bool{false, true} {
				if got, want := evaluate(h, m, starter), referenceEvaluate(h, m, starter); got != want && bad < 10 {
					bad++
					t.Errorf("%v %v starter %v: %+v, want %+v", h, m, starter, got, want)
				}
			}
		}
	})
}

// referenceEvaluate is Eva's evaluate in one piece.
func referenceEvaluate(hand giretra.Set, m giretra.Mode, starter bool) handEval {
	var e handEval
	has := func(r giretra.Rank, s giretra.Suit) bool { return hand.Has(giretra.NewCard(r, s)) }
	switch {
	case m.IsColour():
		ts := m.Trump()
		j, n, ace := has(giretra.Jack, ts), has(giretra.Nine, ts), has(giretra.Ace, ts)
		if j {
			e.g++
		}
		if n {
			if j {
				e.g++
			} else {
				e.p++
			}
		}
		if ace {
			if j && n {
				e.g++
			} else {
				e.p++
			}
		}
		trumps := hand.CountSuit(ts)
		for su := range giretra.Suit(4) {
			if su == ts {
				continue
			}
			switch {
			case hand.OfSuit(su) == 0:
				if trumps >= 2 {
					e.p++ // a void side suit to ruff
				}
			case has(giretra.Ace, su) && has(giretra.Ten, su):
				e.g++
			case has(giretra.Ace, su):
				e.p++
			}
		}
		switch {
		case trumps >= 5:
			e.g++
		case trumps == 4:
			e.p++
		}
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.30 + float64(5*trumps)
	case m == giretra.NoTrumps:
		aces := 0
		for su := range giretra.Suit(4) {
			cs := hand.OfSuit(su)
			if cs == 0 {
				continue
			}
			if has(giretra.Ace, su) {
				aces++
				e.g++
				if has(giretra.Ten, su) {
					e.g++
					if starter && (has(giretra.King, su) || cs.Count() >= 4) {
						e.g++
					}
				}
			}
			if cs.Count() >= 3 {
				e.p++
			}
		}
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.15 + float64(5*aces)
	default: // AllTrumps
		jacks, nines := 0, 0
		for su := range giretra.Suit(4) {
			j, n := has(giretra.Jack, su), has(giretra.Nine, su)
			jacks += b2i(j)
			nines += b2i(n)
			switch {
			case j:
				e.g++
				if n {
					e.g++
				}
				if has(giretra.Ace, su) {
					e.p++
				}
			case n:
				e.p++
			}
		}
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.30 + float64(5*jacks+3*nines)
	}
	e.score = min(100, max(0, e.score))
	return e
}
