package bot

import (
	"github.com/botarena/gamebot/giretra"
)

// handEval is a hand's strength for one mode: tricks it should take for
// sure (g), tricks it may take (p), and a 0..100 score.
type handEval struct {
	g, p  int
	score float64
}

func has(h giretra.Set, r giretra.Rank, s giretra.Suit) bool {
	return h.Has(giretra.NewCard(r, s))
}

// evaluate rates hand for mode m (the five cards seen at bidding time,
// or any number).
func evaluate(hand giretra.Set, m giretra.Mode, starter bool) handEval {
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

// aggressiveness is how much risk the match score warrants: high when the
// opponents are far ahead, low when we are close to the target.
func aggressiveness(ours, theirs, target int) float64 {
	if target <= 0 {
		target = 151
	}
	op := float64(ours) / float64(target)
	tp := float64(theirs) / float64(target)
	switch {
	case tp >= 0.8 && op < 0.5:
		return 0.9
	case tp >= 0.6 && op < 0.3:
		return 0.7
	case op >= 0.8:
		return 0.0
	case op >= 0.6:
		return 0.1
	}
	return 0.3
}

// chooseBid is the heuristic bidder. It only returns options from v.Valid.
func chooseBid(v *giretra.BidView) giretra.Action {
	valid := v.Valid
	seat := v.Seat
	team := seat.Team()
	var bidding giretra.Bidding
	if v.Negotiation != nil {
		if st, err := v.Negotiation.State(); err == nil {
			bidding = st
		} else {
			bidding = giretra.NewBidding(v.Negotiation.Dealer)
		}
	} else {
		bidding = giretra.NewBidding(seat.Previous())
	}
	starter := bidding.Dealer.Next() == seat
	var evals [6]handEval
	for m := range giretra.Mode(6) {
		evals[m] = evaluate(v.Hand, m, starter)
	}
	a := 0.3
	if v.Match != nil {
		a = aggressiveness(v.Match.Points[team], v.Match.Points[team.Other()], v.Match.TargetScore)
	}
	announceT := 55 - a*15
	competeT := 42 - a*7
	doubleT := 65 - a*10
	redoubleT := 75 - a*10
	doubleG, redoubleG := 3, 4
	if a > 0.5 {
		doubleG, redoubleG = 2, 3
	}

	// Redouble our doubled contract when strong.
	for _, act := range valid {
		if act.Type == giretra.Redouble {
			e := evals[act.Mode]
			if e.g >= redoubleG && e.score >= redoubleT {
				return act
			}
		}
	}
	// Double the opponents' current bid when strong against it. Doubling
	// an older, outbid mode would make it the contract: only the current
	// bid is considered.
	for _, act := range valid {
		if act.Type == giretra.Double && act.Mode == bidding.CurrentBid && bidding.CurrentBidder.Team() != team {
			e := evals[act.Mode]
			if e.g >= doubleG && e.score >= doubleT {
				return act
			}
		}
	}
	best, bestScore := -1, -1.0
	for i, act := range valid {
		if act.Type != giretra.Announce {
			continue
		}
		if s := evals[act.Mode].score; s > bestScore {
			best, bestScore = i, s
		}
	}
	if best >= 0 {
		if bidding.CurrentBid == giretra.NoMode {
			return valid[best] // first speaker: must announce
		}
		if bestScore >= announceT {
			return valid[best]
		}
		if bidding.CurrentBidder.Team() != team && bestScore >= competeT {
			return valid[best]
		}
	}
	return giretra.FallbackAction(valid)
}
