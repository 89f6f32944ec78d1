package agents

import (
	"context"

	"github.com/botarena/gamebot/giretra"
)

// Eva's bidding: the tricks a hand should take and the score it gives
// each mode.

// handEval is a hand's guaranteed and probable tricks and score in a mode.
type handEval struct {
	g, p  int
	score float64
}

func pointPct(hand giretra.Set, m giretra.Mode) float64 {
	return float64(giretra.SetPoints(hand, m)) / float64(m.Total()) * 100
}

// HandTricks is Eva's count of the tricks a hand should take in mode m:
// sure ones and likely ones. starter is the hand that leads the first
// trick (an Ace-Ten with the King or four cards of a suit then makes a
// third sure trick at NoTrumps). Our bot's bidding counts tricks the same
// way and weighs them its own way.
func HandTricks(hand giretra.Set, m giretra.Mode, starter bool) (sure, likely int) {
	has := func(r giretra.Rank, s giretra.Suit) bool { return hand.Has(giretra.NewCard(r, s)) }
	switch {
	case m.IsColour():
		ts := m.Trump()
		j, n, ace := has(giretra.Jack, ts), has(giretra.Nine, ts), has(giretra.Ace, ts)
		sure, likely = b2i(j), 0
		switch {
		case n && j:
			sure++
		case n:
			likely++
		}
		switch {
		case ace && j && n:
			sure++
		case ace:
			likely++
		}
		trumps := hand.CountSuit(ts)
		for su := range giretra.Suit(4) {
			if su == ts {
				continue
			}
			switch {
			case hand.OfSuit(su) == 0:
				if trumps >= 2 {
					likely++ // a void side suit to ruff
				}
			case has(giretra.Ace, su) && has(giretra.Ten, su):
				sure++
			case has(giretra.Ace, su):
				likely++
			}
		}
		switch {
		case trumps >= 5:
			sure++
		case trumps == 4:
			likely++
		}
	case m == giretra.NoTrumps:
		for su := range giretra.Suit(4) {
			cs := hand.OfSuit(su)
			if cs == 0 {
				continue
			}
			if has(giretra.Ace, su) {
				sure++
				if has(giretra.Ten, su) {
					sure++
					if starter && (has(giretra.King, su) || cs.Count() >= 4) {
						sure++
					}
				}
			}
			if cs.Count() >= 3 {
				likely++
			}
		}
	default: // AllTrumps
		for su := range giretra.Suit(4) {
			j, n := has(giretra.Jack, su), has(giretra.Nine, su)
			switch {
			case j:
				sure++
				if n {
					sure++
				}
				if has(giretra.Ace, su) {
					likely++
				}
			case n:
				likely++
			}
		}
	}
	return sure, likely
}

// countRank is how many suits of hand hold rank r.
func countRank(hand giretra.Set, r giretra.Rank) int {
	n := 0
	for su := range giretra.Suit(4) {
		n += b2i(hand.Has(giretra.NewCard(r, su)))
	}
	return n
}

func evaluate(hand giretra.Set, m giretra.Mode, starter bool) handEval {
	var e handEval
	e.g, e.p = HandTricks(hand, m, starter)
	switch {
	case m.IsColour():
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.30 + float64(5*hand.CountSuit(m.Trump()))
	case m == giretra.NoTrumps:
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.15 + float64(5*countRank(hand, giretra.Ace))
	default: // AllTrumps
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.30 + float64(5*countRank(hand, giretra.Jack)+3*countRank(hand, giretra.Nine))
	}
	e.score = min(100, max(0, e.score))
	return e
}

// Aggressiveness is 0 (careful) .. 1 (desperate) from the match score
// (PlayerAgentHelper.ComputeAggressiveness).
func Aggressiveness(ours, theirs, target int) float64 {
	op := float64(ours) / float64(target)
	tp := float64(theirs) / float64(target)
	switch {
	case tp >= 0.8 && op < 0.5:
		return 0.9
	case tp >= 0.6 && op < 0.3:
		return 0.7
	case op >= 0.8:
		return 0
	case op >= 0.6:
		return 0.1
	}
	return 0.3
}

// ChooseAction redoubles or doubles with enough sure tricks, announces its
// best mode when first to speak, else announces a strong enough mode (a
// lower bar against an opponent's bid), else accepts.
func (a *Eva) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	a.seat = v.Seat
	starter := v.Negotiation.Dealer.Next() == a.seat
	var ev [6]handEval
	for m := giretra.ColourClubs; m <= giretra.AllTrumps; m++ {
		ev[m] = evaluate(v.Hand, m, starter)
	}
	my := a.team()
	ag := Aggressiveness(v.Match.Points[my], v.Match.Points[my.Other()], v.Match.TargetScore)
	announceT := 55 - ag*15 + a.Shift
	competeT := 42 - ag*7 + a.Shift
	doubleT := 65 - ag*10 + a.Shift
	redoubleT := 75 - ag*10 + a.Shift
	doubleMin, redoubleMin := 3, 4
	if ag > 0.5 {
		doubleMin, redoubleMin = 2, 3
	}
	first := func(t giretra.ActionType) (giretra.Action, bool) {
		for _, x := range v.Valid {
			if x.Type == t {
				return x, true
			}
		}
		return giretra.Action{}, false
	}
	if x, ok := first(giretra.Redouble); ok {
		if e := ev[x.Mode]; e.g >= redoubleMin && e.score >= redoubleT {
			return x, nil
		}
	}
	if x, ok := first(giretra.Double); ok {
		if e := ev[x.Mode]; e.g >= doubleMin && e.score >= doubleT {
			return x, nil
		}
	}
	bestAnnounce := func(bar float64) (giretra.Action, bool) {
		var out giretra.Action
		found := false
		for _, x := range v.Valid {
			if x.Type != giretra.Announce || ev[x.Mode].score < bar {
				continue
			}
			if !found || ev[x.Mode].score > ev[out.Mode].score {
				out, found = x, true
			}
		}
		return out, found
	}
	_, bidder, hasBid := lastBid(v.Negotiation.Actions)
	if !hasBid {
		if x, ok := bestAnnounce(-1); ok {
			return x, nil
		}
	} else {
		if x, ok := bestAnnounce(announceT); ok {
			return x, nil
		}
		if bidder.Team() != my {
			if x, ok := bestAnnounce(competeT); ok {
				return x, nil
			}
		}
	}
	if x, ok := first(giretra.Accept); ok {
		return x, nil
	}
	return v.Valid[0], nil
}
