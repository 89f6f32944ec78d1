package bot

import (
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/internal/handtest"
)

// TestEvaluateReference: evaluate, on Eva's trick counts, rates every
// hand exactly as the bot's own count did, which is kept here as the
// oracle: the bot's bids must not move.
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

// referenceEvaluate is the bot's evaluate as it counted tricks itself.
func referenceEvaluate(hand giretra.Set, m giretra.Mode, starter bool) handEval {
	var e handEval
	pts := float64(giretra.SetPoints(hand, m)) / float64(m.Total()) * 100
	scale := 5.0 / float64(max(hand.Count(), 1)) // score as if 5 cards
	switch {
	case m.IsColour():
		t := m.Trump()
		tr := hand.OfSuit(t)
		nt := tr.Count()
		j, n, a := has(hand, giretra.Jack, t), has(hand, giretra.Nine, t), has(hand, giretra.Ace, t)
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
		if a {
			if j && n {
				e.g++
			} else {
				e.p++
			}
		}
		voids := 0
		for s := range giretra.Suit(4) {
			if s == t {
				continue
			}
			if hand.OfSuit(s) == 0 {
				voids++
				if nt >= 2 {
					e.p++
				}
				continue
			}
			sa, st := has(hand, giretra.Ace, s), has(hand, giretra.Ten, s)
			switch {
			case sa && st:
				e.g++
			case sa:
				e.p++
			}
		}
		switch {
		case nt >= 5:
			e.g++
		case nt >= 4:
			e.p++
		}
		e.score = float64(e.g)*18 + float64(e.p)*8 + pts*0.30*scale + float64(nt)*5 + float64(voids)*4
		// A bare high trump without its guards is weaker than it looks.
		if nt == 1 && !j {
			e.score -= 6
		}
	case m == giretra.NoTrumps:
		aces := 0
		for s := range giretra.Suit(4) {
			cs := hand.OfSuit(s)
			if cs == 0 {
				continue
			}
			sa, st, sk := has(hand, giretra.Ace, s), has(hand, giretra.Ten, s), has(hand, giretra.King, s)
			if sa {
				aces++
				e.g++
				if st {
					e.g++
					if starter && (sk || cs.Count() >= 4) {
						e.g++
					}
				}
			}
			if cs.Count() >= 3 {
				e.p++
			}
		}
		e.score = float64(e.g)*18 + float64(e.p)*8 + pts*0.15*scale + float64(aces)*5
	default: // AllTrumps
		js, ns := 0, 0
		for s := range giretra.Suit(4) {
			j, n, a := has(hand, giretra.Jack, s), has(hand, giretra.Nine, s), has(hand, giretra.Ace, s)
			if j {
				js++
				e.g++
				if n {
					e.g++
				}
				if a {
					e.p++
				}
			} else if n {
				e.p++
			}
			if n {
				ns++
			}
		}
		e.score = float64(e.g)*18 + float64(e.p)*8 + pts*0.30*scale + float64(js)*5 + float64(ns)*3
	}
	e.score = min(max(e.score, 0), 100)
	return e
}
