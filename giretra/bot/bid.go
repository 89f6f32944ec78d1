package bot

import (
	"context"
	"math"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bidmodel"
)

// situation is v for the learned evaluator, told the behaviour mixture
// of each other seat when locked (b.mu is held).
func (b *Bot) situation(v *giretra.BidView, locked bool) (bidmodel.Situation, bool) {
	s, ok := bidmodel.NewSituation(v)
	if ok && locked && !b.cfg.NoInference {
		for i, p := range [3]giretra.Position{v.Seat.Partner(), v.Seat.Next(), v.Seat.Previous()} {
			mix := b.bh.mixture(p)
			for m := range nModels {
				s.Mix[i][m] = float32(mix[m])
			}
		}
	}
	return s, ok
}

// priorLearnedBid is the evaluator's choice in v for a seat whose beliefs
// of the others are unknown (the mixture before evidence): how a partner
// that is this bot bids, as well as we can tell.
func (b *Bot) priorLearnedBid(v *giretra.BidView) giretra.Action {
	s, ok := bidmodel.NewSituation(v)
	if !ok {
		return chooseBid(v)
	}
	if a, ok := bestLearned(bidmodel.Embedded(), &s, v.Valid, b.cfg.Calibrated); ok {
		return a
	}
	return chooseBid(v)
}

// learnedBid is the offered action the learned evaluator values most, or
// heur when the negotiation does not replay. The evaluator is told the
// behaviour mixture of each other seat when locked (b.mu is held).
func (b *Bot) learnedBid(v *giretra.BidView, heur giretra.Action, locked bool) giretra.Action {
	s, ok := b.situation(v, locked)
	if !ok {
		return heur
	}
	if a, ok := bestLearned(bidmodel.Embedded(), &s, v.Valid, b.cfg.Calibrated); ok {
		return a
	}
	return heur
}

// announceLearned is the simulation's action when it doubles or
// redoubles, or when the evaluator would; otherwise the evaluator's.
// Labels whose playouts solve the end value a doubled contract by a
// defence that sees every card, and an evaluator fitted on them doubles
// far more than the bot; this keeps its other choices only.
func (b *Bot) announceLearned(ctx context.Context, v *giretra.BidView, heur giretra.Action, locked bool) giretra.Action {
	sim := b.simulateBid(ctx, v, heur)
	learned := b.learnedBid(v, sim, locked)
	if isDouble(sim) || isDouble(learned) {
		return sim
	}
	return learned
}

func isDouble(a giretra.Action) bool { return a.Type == giretra.Double || a.Type == giretra.Redouble }

// bestLearned is the action of valid the evaluator m values most in s,
// each value raised by the playout calibration of the contract the action
// would leave when calibrated (the data's values are heuristic playouts);
// ok is false when none is legal there.
func bestLearned(m *bidmodel.Model, s *bidmodel.Situation, valid []giretra.Action, calibrated bool) (giretra.Action, bool) {
	var buf [16]float64
	vals := m.Values(s, valid, buf[:0])
	best := -1
	for i, a := range valid {
		if math.IsInf(vals[i], -1) {
			continue
		}
		if calibrated {
			nb := s.Bid
			if nb.Apply(len(s.Neg.Actions), a) == nil {
				if c, ok := nb.Contract(); ok {
					vals[i] += calibration(c, a.Player.Team())
				}
			}
		}
		if best < 0 || vals[i] > vals[best] {
			best = i
		}
	}
	if best < 0 {
		return giretra.Action{}, false
	}
	return valid[best], true
}

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
// or any number). It counts tricks as Eva does (agents.HandTricks) and
// weighs them its own way, the weights the bot's bidding thresholds
// (chooseBid's, minPlausible) are set on: the card points count as if
// the hand held five cards, a Colour counts its voids, and a single trump
// without the Jack marks it down.
func evaluate(hand giretra.Set, m giretra.Mode, starter bool) handEval {
	var e handEval
	e.g, e.p = agents.HandTricks(hand, m, starter)
	pts := float64(giretra.SetPoints(hand, m)) / float64(m.Total()) * 100
	scale := 5.0 / float64(max(hand.Count(), 1)) // score as if 5 cards
	count := func(r giretra.Rank) int {
		n := 0
		for s := range giretra.Suit(4) {
			if has(hand, r, s) {
				n++
			}
		}
		return n
	}
	switch {
	case m.IsColour():
		t := m.Trump()
		nt := hand.OfSuit(t).Count()
		voids := 0
		for s := range giretra.Suit(4) {
			if s != t && hand.OfSuit(s) == 0 {
				voids++
			}
		}
		e.score = float64(e.g)*18 + float64(e.p)*8 + pts*0.30*scale + float64(nt)*5 + float64(voids)*4
		if nt == 1 && !has(hand, giretra.Jack, t) {
			e.score -= 6
		}
	case m == giretra.NoTrumps:
		e.score = float64(e.g)*18 + float64(e.p)*8 + pts*0.15*scale + float64(count(giretra.Ace))*5
	default: // AllTrumps
		e.score = float64(e.g)*18 + float64(e.p)*8 + pts*0.30*scale + float64(count(giretra.Jack))*5 + float64(count(giretra.Nine))*3
	}
	e.score = min(max(e.score, 0), 100)
	return e
}

// aggressiveness is how much risk the match score warrants: Eva's, with
// the engine's target when none is given.
func aggressiveness(ours, theirs, target int) float64 {
	if target <= 0 {
		target = 151
	}
	return agents.Aggressiveness(ours, theirs, target)
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
