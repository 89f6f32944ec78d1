package bot

import (
	"context"

	"github.com/botarena/gamebot/giretra"
)

// The other seats' answers in the trick in progress. The card search
// solves sampled deals double-dummy: it assumes every player sees every
// hand. A player that plays by habits does not; when the behaviour model
// has recognised one of the known policies in a seat's play (not by name:
// from the cards it played this match), the search lets that policy
// choose the seat's card in the current trick, in each sampled deal. For
// the partner that is realism (it will not find the double-dummy card);
// for an opponent it is exploitation, and trusted only as far as the
// model has explained its play. Later tricks stay double-dummy: a policy
// there would cost a call per node.

// trustModel is the weight a seat's mixture must put on one policy
// before the search trusts it to predict the seat's card. Tuned on seeds
// 410000 (100 duplicate pairs each, against the search without it): with
// Eva as partner against Eva + Eva, partner only +1.5 % match wins, and
// opponents too at 0.8 +3.5 %, at 0.5 margin per deal +1.05; our bot as
// both partners against Eva at 0.5, +2.0 %.
const trustModel = 0.5

// trickPolicy returns the seats whose answer in the current trick is
// predicted (a bit per position), and the prediction; 0 when there is
// none. The caller holds b.mu.
func (b *Bot) trickPolicy(v *giretra.PlayView, pc *playCtx) (uint8, func(giretra.Position, giretra.Set, *giretra.Trick) giretra.Card) {
	if b.cfg.DoubleDummy || b.cfg.NoInference || v.Match == nil || v.State == nil {
		return 0, nil
	}
	cur := &v.State.Current
	var played uint8
	for i := range int(cur.N) {
		played |= 1 << cur.PlayerAt(i)
	}
	var sm seatModels
	for p := range giretra.Position(4) {
		if p == v.Seat || played&(1<<p) != 0 {
			continue
		}
		if best, ok := b.recognised(p); ok {
			sm.kind[p] = best
			sm.seats |= 1 << p
		}
	}
	if sm.seats == 0 {
		return 0, nil
	}
	sm.catchUp(v, pc)
	return sm.seats, func(p giretra.Position, hand giretra.Set, t *giretra.Trick) giretra.Card {
		return answer(sm.copyOf(p), p, v, hand, t)
	}
}

// recognised is the agent policy (modelEva or modelCalc) that seat p's
// play this match fits, when the behaviour mixture puts at least
// trustModel on it. Our own heuristic or random are never returned: for
// them the search's player is the better guess. The caller holds b.mu.
func (b *Bot) recognised(p giretra.Position) (int, bool) {
	mix := b.bh.mixture(p)
	best := modelEva
	for m := range nModels {
		if mix[m] > mix[best] {
			best = m
		}
	}
	return best, mix[best] >= trustModel && (best == modelEva || best == modelCalc)
}

// catchUp tells pl, sitting at seat, everything of the deal so far.
func catchUp(pl giretra.Player, seat giretra.Position, v *giretra.PlayView, pc *playCtx) {
	ctx := context.Background()
	_ = pl.Notify(ctx, seat, &giretra.Event{Kind: giretra.DealStarted, Match: v.Match})
	if pc.neg != nil {
		_ = pl.Notify(ctx, seat, &giretra.Event{Kind: giretra.NegotiationCompleted, Negotiation: pc.neg, Match: v.Match})
	}
	leader := v.State.Current.Leader
	if len(v.State.Completed) > 0 {
		leader = v.State.Completed[0].Leader
	}
	h := giretra.HandState{Mode: v.State.Mode, Current: giretra.NewTrick(leader)}
	var trickBuf [8]giretra.Trick
	h.Completed = trickBuf[:0]
	var buf [32]play
	for _, x := range playsOf(v.State, buf[:0]) {
		done := h.Play(x.c)
		_ = pl.Notify(ctx, seat, &giretra.Event{Kind: giretra.CardPlayed, Player: x.p, Card: x.c, Hand: &h, Match: v.Match})
		if done {
			last := h.Completed[len(h.Completed)-1]
			_ = pl.Notify(ctx, seat, &giretra.Event{Kind: giretra.TrickCompleted, Trick: &last, Winner: last.Winner(h.Mode), Hand: &h, Match: v.Match})
		}
	}
}

// answer is pl's card at seat, holding hand, when the current trick has
// become t (the cards played in it since v are told to pl first).
func answer(pl giretra.Player, seat giretra.Position, v *giretra.PlayView, hand giretra.Set, t *giretra.Trick) giretra.Card {
	ctx := context.Background()
	h := *v.State
	for i := int(h.Current.N); i < int(t.N); i++ {
		h.Play(t.Cards[i])
		_ = pl.Notify(ctx, seat, &giretra.Event{Kind: giretra.CardPlayed, Player: t.PlayerAt(i), Card: t.Cards[i], Hand: &h, Match: v.Match})
	}
	valid := giretra.LegalPlays(hand, &h.Current, h.Mode)
	if valid.Count() < 2 {
		return valid.First()
	}
	c, err := pl.ChooseCard(ctx, &giretra.PlayView{Seat: seat, Hand: hand, State: &h, Match: v.Match, Valid: valid})
	if err != nil {
		return giretra.NoCard
	}
	return c
}
