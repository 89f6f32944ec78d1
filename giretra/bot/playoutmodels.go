package bot

import (
	"context"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
)

// The other seats in playouts. The bid simulation and the first card's
// rollouts play deals to their end; by default every seat plays our own
// heuristic. A seat whose play this match fits one of the known policies
// (the behaviour mixture puts at least trustModel on it, learnt from the
// cards it played, never from its name) plays that policy instead: the
// partner we have rather than the one we would like, and opponents as
// they really answer. The models are value types, so a playout copies
// the state caught up once per decision and tells it the playout's cards.
//
// It is off unless Config.PlayoutModels is set: on tuning seeds 1300000
// (400 duplicate matches each, paired on the same deals) it changed
// nothing measurable against Eva + Eva (match wins +0.2% [-3.7, +4.2],
// margin per deal −0.23 [−1.17, +0.72]) and, with Eva as the partner,
// −3.0% [−6.8, +0.8] (−0.31 [−1.08, +0.47]), for about a sixth more time
// per bid (p50 9.3 → 10.8 ms, p99 24.4 → 28.9 ms in the same runs). The playouts value contracts and first cards by comparison, and
// every candidate meets the same modelled seats, so a better model of
// them moves the comparison little.

// seatModels holds, for each seat played by a model, the model caught up
// with the deal so far.
type seatModels struct {
	seats uint8 // a bit per modelled seat
	kind  [4]int
	eva   [4]agents.Eva
	calc  [4]agents.Calculating
}

// playoutModels returns the seats other than self whose play the
// behaviour mixture recognises, or nil when none or when models are off.
// The caller holds b.mu.
func (b *Bot) playoutModels(self giretra.Position) *seatModels {
	if !b.cfg.PlayoutModels || b.cfg.DoubleDummy || b.cfg.NoInference {
		return nil
	}
	var sm seatModels
	for p := range giretra.Position(4) {
		if p == self {
			continue
		}
		best, ok := b.recognised(p)
		if !ok {
			continue
		}
		sm.seats |= 1 << p
		sm.kind[p] = best
	}
	if sm.seats == 0 {
		return nil
	}
	return &sm
}

// reset makes every model new.
func (sm *seatModels) reset() {
	for p := range giretra.Position(4) {
		if sm.seats&(1<<p) == 0 {
			continue
		}
		if sm.kind[p] == modelEva {
			sm.eva[p] = *agents.NewEva()
		} else {
			sm.calc[p] = *newCalculatingModel()
		}
	}
}

// start makes every model new and tells it that the deal started and its
// negotiation ended as neg (for the bid simulation: the bids so far and
// the action under study).
func (sm *seatModels) start(match *giretra.MatchState, neg *giretra.Negotiation) {
	sm.reset()
	ctx := context.Background()
	for p := range giretra.Position(4) {
		if sm.seats&(1<<p) == 0 {
			continue
		}
		pl := sm.player(p)
		_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.DealStarted, Match: match})
		_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.NegotiationCompleted, Negotiation: neg, Match: match})
	}
}

// player is seat p's model in sm (sm is a playout's own copy).
func (sm *seatModels) player(p giretra.Position) giretra.Player {
	if sm.kind[p] == modelEva {
		return &sm.eva[p]
	}
	return &sm.calc[p]
}

// copyOf is a copy of seat p's model, to be told what sm's is not.
func (sm *seatModels) copyOf(p giretra.Position) giretra.Player {
	if sm.kind[p] == modelEva {
		e := sm.eva[p]
		return &e
	}
	c := sm.calc[p]
	return &c
}

// catchUp makes every model new and tells it the deal so far in v.
func (sm *seatModels) catchUp(v *giretra.PlayView, pc *playCtx) {
	sm.reset()
	for p := range giretra.Position(4) {
		if sm.seats&(1<<p) != 0 {
			catchUp(sm.player(p), p, v, pc)
		}
	}
}

// card is modelled seat p's card holding hand in hs; NoCard when the
// model fails (the caller then plays the heuristic).
func (sm *seatModels) card(p giretra.Position, hand, valid giretra.Set, hs *giretra.HandState, match *giretra.MatchState) giretra.Card {
	c, err := sm.player(p).ChooseCard(context.Background(), &giretra.PlayView{Seat: p, Hand: hand, State: hs, Match: match, Valid: valid})
	if err != nil || !valid.Has(c) {
		return giretra.NoCard
	}
	return c
}

// played tells every model that p played c (hs already updated), and the
// trick that c completed, if it did.
func (sm *seatModels) played(p giretra.Position, c giretra.Card, hs *giretra.HandState, done bool, match *giretra.MatchState) {
	ctx := context.Background()
	for q := range giretra.Position(4) {
		if sm.seats&(1<<q) == 0 {
			continue
		}
		pl := sm.player(q)
		_ = pl.Notify(ctx, q, &giretra.Event{Kind: giretra.CardPlayed, Player: p, Card: c, Hand: hs, Match: match})
		if done {
			last := &hs.Completed[len(hs.Completed)-1]
			_ = pl.Notify(ctx, q, &giretra.Event{Kind: giretra.TrickCompleted, Trick: last, Winner: last.Winner(hs.Mode), Hand: hs, Match: match})
		}
	}
}
