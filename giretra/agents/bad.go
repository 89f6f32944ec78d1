package agents

import (
	"cmp"
	"context"
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
)

// Bad is the engine's BadPlayerAgent ("Sakabelou"), the deliberate
// inverse of Calculating: it announces the mode its hand is worst at,
// and eagerly when the hand is weak; it doubles when it holds no master
// card; it leads its weakest, cheapest non-master card, throws its
// cheapest card on a partner's trick and its most valuable one (masters
// first) on an opponent's.
type Bad struct {
	rng    *rand.Rand
	seat   giretra.Position
	played giretra.Set // every card seen played this deal
}

// NewBad returns a Bad agent; rng drives its cuts only.
func NewBad(rng *rand.Rand) *Bad { return &Bad{rng: rng} }

// ChooseCut cuts at random, as every engine agent does.
func (a *Bad) ChooseCut(_ context.Context, seat giretra.Position, _ *giretra.MatchState) (giretra.Cut, error) {
	a.seat = seat
	return randomCut(a.rng), nil
}

// ChooseAction scores the hand in every mode as Calculating does and
// bids the worst: with no master card in the worst mode it redoubles or
// doubles when it may; under 20 it announces the worst mode (or, before
// any bid, any mode under 50), under 40 any mode, the worst first; else
// it accepts.
func (a *Bad) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	a.seat = v.Seat
	var score [6]float64
	worst := giretra.ColourClubs
	for m := giretra.ColourClubs; m <= giretra.AllTrumps; m++ {
		score[m] = calcStrength(v.Hand, m)
		if score[m] < score[worst] {
			worst = m
		}
	}
	if potentialMasters(v.Hand, worst) == 0 {
		if x, ok := doubleOffered(v.Valid); ok {
			return x, nil
		}
	}
	_, _, hasBid := lastBid(v.Negotiation.Actions)
	lower := func(a, b giretra.Mode) bool { return score[a] < score[b] }
	if score[worst] < 20 {
		if x, ok := announcement(v.Valid, func(m giretra.Mode) bool { return m == worst || (!hasBid && score[m] < 50) }, lower); ok {
			return x, nil
		}
	}
	if score[worst] < 40 {
		if x, ok := announcement(v.Valid, func(giretra.Mode) bool { return true }, lower); ok {
			return x, nil
		}
	}
	return acceptOffered(v.Valid), nil
}

// master reports whether no unplayed card of c's suit beats c (the agent
// ignores its own hand, as Calculating does).
func (a *Bad) master(c giretra.Card, m giretra.Mode) bool {
	return giretra.Stronger(c, m)&^a.played == 0
}

// ChooseCard leads the cheapest, weakest card that is not a master (any
// card when all are), plays the cheapest, weakest card on a partner's
// trick, and gives an opponent's trick its most valuable card, a master
// when it has one.
func (a *Bad) ChooseCard(_ context.Context, v *giretra.PlayView) (giretra.Card, error) {
	a.seat = v.Seat
	if v.Valid.Count() == 1 {
		return v.Valid.First(), nil
	}
	m := v.State.Mode
	t := &v.State.Current
	if t.N == 0 {
		consider := filter(v.Valid, func(c giretra.Card) bool { return !a.master(c, m) })
		if consider == 0 {
			consider = v.Valid
		}
		return calcLeast(consider, m), nil
	}
	if t.PlayerAt(t.WinnerIndex(m)).Team() == a.seat.Team() {
		return calcLeast(v.Valid, m), nil
	}
	give := filter(v.Valid, func(c giretra.Card) bool { return a.master(c, m) })
	if give == 0 {
		give = v.Valid
	}
	return pick(give, func(x, y giretra.Card) int {
		return cmp.Or(cmp.Compare(pts(y, m), pts(x, m)), cmp.Compare(str(y, m), str(x, m)))
	}), nil
}

// Notify tracks the cards played in the deal.
func (a *Bad) Notify(_ context.Context, seat giretra.Position, e *giretra.Event) error {
	a.seat = seat
	switch e.Kind {
	case giretra.DealStarted:
		a.played = 0
	case giretra.CardPlayed:
		a.played |= e.Card.Bit()
	}
	return nil
}
