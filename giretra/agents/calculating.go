package agents

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"github.com/botarena/gamebot/giretra"
)

// Calculating is the engine's CalculatingPlayerAgent ("Razazavavy"): a
// hand-strength percentage per mode for bidding, card counting for "master"
// cards, and simple partner signals (docs/giretra.md §6).
type Calculating struct {
	rng  *rand.Rand
	seat giretra.Position

	played    giretra.Set // every card seen played this deal
	disliked  suits       // partner dropped ≥ 8 points there while not winning
	preferred suits       // partner led it

	// The trick in progress, as seen through card-played notifications.
	leader, winner       giretra.Position
	hasLeader, hasWinner bool
}

// NewCalculating returns a Calculating agent; rng drives its cuts only.
func NewCalculating(rng *rand.Rand) *Calculating { return &Calculating{rng: rng} }

// ChooseCut cuts at random, as the engine's agent does.
func (a *Calculating) ChooseCut(_ context.Context, seat giretra.Position, _ *giretra.MatchState) (giretra.Cut, error) {
	a.seat = seat
	return randomCut(a.rng), nil
}

// calcStrength is the agent's hand strength (0..100) for mode m.
func calcStrength(hand giretra.Set, m giretra.Mode) float64 {
	pct := float64(giretra.SetPoints(hand, m)) / float64(m.Total()) * 100
	bonus := 0.0
	for c := range hand.All() {
		switch s := str(c, m); {
		case s >= 7:
			bonus += 5
		case s == 6:
			bonus += 3
		}
	}
	if t, ok := trumpSuit(m); ok {
		bonus += 4 * float64(hand.CountSuit(t))
		if hand.Has(giretra.NewCard(giretra.Jack, t)) {
			bonus += 8
		}
		if hand.Has(giretra.NewCard(giretra.Nine, t)) {
			bonus += 5
		}
	}
	ranks := func(r giretra.Rank) float64 {
		n := 0
		for su := range giretra.Suit(4) {
			n += b2i(hand.Has(giretra.NewCard(r, su)))
		}
		return float64(n)
	}
	switch m {
	case giretra.AllTrumps:
		bonus += 6*ranks(giretra.Jack) + 4*ranks(giretra.Nine)
	case giretra.NoTrumps:
		bonus += 5*ranks(giretra.Ace) + 2*ranks(giretra.Ten)
	}
	return min(100, max(0, pct*0.4+bonus))
}

// potentialMasters counts the suits whose best held card is unbeatable by
// any card outside the hand.
func potentialMasters(hand giretra.Set, m giretra.Mode) int {
	n := 0
	for su := range giretra.Suit(4) {
		cs := hand.OfSuit(su)
		if cs == 0 {
			continue
		}
		if giretra.Stronger(strongest(cs, m), m)&^hand == 0 {
			n++
		}
	}
	return n
}

// ChooseAction bids by hand strength: it doubles (redoubles) holding at
// least three suits it tops in its best mode, announces from 60 (its best
// mode, or any mode from 50 before a bid), then any mode from 45, else
// accepts.
func (a *Calculating) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	a.seat = v.Seat
	var score [6]float64
	best := giretra.ColourClubs
	for m := giretra.ColourClubs; m <= giretra.AllTrumps; m++ {
		score[m] = calcStrength(v.Hand, m)
		if score[m] > score[best] {
			best = m
		}
	}
	if potentialMasters(v.Hand, best) >= 3 {
		if x, ok := doubleOffered(v.Valid); ok {
			return x, nil
		}
	}
	_, _, hasBid := lastBid(v.Negotiation.Actions)
	higher := func(a, b giretra.Mode) bool { return score[a] > score[b] }
	if score[best] >= 60 {
		if x, ok := announcement(v.Valid, func(m giretra.Mode) bool { return m == best || (!hasBid && score[m] >= 50) }, higher); ok {
			return x, nil
		}
	}
	if score[best] >= 45 {
		if x, ok := announcement(v.Valid, func(m giretra.Mode) bool { return score[m] >= 45 }, higher); ok {
			return x, nil
		}
	}
	return acceptOffered(v.Valid), nil
}

// master reports whether no unplayed card of c's suit beats c (the agent
// ignores its own hand here).
func (a *Calculating) master(c giretra.Card, m giretra.Mode) bool {
	return giretra.Stronger(c, m)&^a.played == 0
}

// ChooseCard leads masters, else partner's suits, a middle trump or a long
// suit; follows with points on a partner's trick, else the cheapest winner,
// else the cheapest card.
func (a *Calculating) ChooseCard(_ context.Context, v *giretra.PlayView) (giretra.Card, error) {
	a.seat = v.Seat
	if v.Valid.Count() == 1 {
		return v.Valid.First(), nil
	}
	m := v.State.Mode
	t := &v.State.Current
	if t.N == 0 {
		return a.lead(v.Valid, m), nil
	}
	w := t.WinnerIndex(m)
	if t.PlayerAt(w).Team() == a.seat.Team() {
		// Most points, then strongest.
		return pick(v.Valid, func(x, y giretra.Card) int {
			return cmp.Or(cmp.Compare(pts(y, m), pts(x, m)), cmp.Compare(str(y, m), str(x, m)))
		}), nil
	}
	if c := minWinner(v.Valid, t.Cards[w], t.Led(), m); c != giretra.NoCard {
		return c, nil
	}
	return calcLeast(v.Valid, m), nil
}

// calcLeast is the fewest points, then the weakest.
func calcLeast(valid giretra.Set, m giretra.Mode) giretra.Card {
	return pick(valid, func(x, y giretra.Card) int {
		return cmp.Or(cmp.Compare(pts(x, m), pts(y, m)), cmp.Compare(str(x, m), str(y, m)))
	})
}

func (a *Calculating) lead(valid giretra.Set, m giretra.Mode) giretra.Card {
	if masters := filter(valid, func(c giretra.Card) bool { return a.master(c, m) }); masters != 0 {
		if liked := filter(masters, func(c giretra.Card) bool { return !a.disliked.has(c.Suit()) }); liked != 0 {
			return pick(liked, func(x, y giretra.Card) int {
				return cmp.Or(cmp.Compare(b2i(a.preferred.has(y.Suit())), b2i(a.preferred.has(x.Suit()))),
					cmp.Compare(pts(y, m), pts(x, m)))
			})
		}
		return pick(masters, func(x, y giretra.Card) int { return cmp.Compare(pts(y, m), pts(x, m)) })
	}
	if a.preferred != 0 {
		pref := filter(inSuits(valid, a.preferred), func(c giretra.Card) bool { return !isTrumpSuit(c.Suit(), m) })
		if pref != 0 {
			return strongest(pref, m)
		}
	}
	consider := filter(valid, func(c giretra.Card) bool { return !a.disliked.has(c.Suit()) })
	if consider == 0 {
		consider = valid
	}
	if ts, ok := trumpSuit(m); ok {
		if trumps := consider.OfSuit(ts); trumps.Count() >= 2 {
			// The middle trump (index n/2 in ascending strength).
			asc := trumps.Cards()
			slices.SortStableFunc(asc, func(x, y giretra.Card) int { return cmp.Compare(str(x, m), str(y, m)) })
			return asc[len(asc)/2]
		}
	}
	// The suit (of ≥ 2 cards) with the strongest top card; its top card.
	bestSuit, bestTop := -1, 0
	for su := range giretra.Suit(4) {
		cs := consider.OfSuit(su)
		if cs.Count() < 2 {
			continue
		}
		if top := str(strongest(cs, m), m); bestSuit < 0 || top > bestTop {
			bestSuit, bestTop = int(su), top
		}
	}
	if bestSuit >= 0 {
		return strongest(consider.OfSuit(giretra.Suit(bestSuit)), m)
	}
	return strongest(consider, m)
}

// Notify tracks played cards and the partner's signals.
func (a *Calculating) Notify(_ context.Context, seat giretra.Position, e *giretra.Event) error {
	a.seat = seat
	switch e.Kind {
	case giretra.DealStarted:
		a.played, a.disliked, a.preferred = 0, 0, 0
		a.hasLeader, a.hasWinner = false, false
	case giretra.CardPlayed:
		a.played |= e.Card.Bit()
		h := e.Hand
		if h == nil || h.Over {
			return nil // the engine's currentTrick is null after the last trick
		}
		// After a 4th card the engine's current trick is already the next,
		// empty one; the agent then sees no winner (an engine quirk kept).
		t := &h.Current
		partner := a.seat.Partner()
		if t.N == 1 {
			a.leader, a.hasLeader = e.Player, true
			a.winner, a.hasWinner = e.Player, true
			if e.Player == partner {
				a.preferred.add(e.Card.Suit())
			}
			return nil
		}
		a.hasWinner = t.N > 0
		if a.hasWinner {
			a.winner = t.Winner(h.Mode)
		}
		if e.Player == partner && (!a.hasLeader || e.Player != a.leader) && pts(e.Card, h.Mode) >= 8 {
			if !a.hasWinner || a.winner.Team() != a.seat.Team() {
				a.disliked.add(e.Card.Suit())
				a.preferred.del(e.Card.Suit())
			}
		}
	case giretra.TrickCompleted:
		a.hasLeader, a.hasWinner = false, false
	}
	return nil
}
