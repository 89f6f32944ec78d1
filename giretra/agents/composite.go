package agents

import (
	"context"

	"github.com/botarena/gamebot/giretra"
)

// Players made of two others, to measure what one part of a player is
// worth (giretra-strength's evabid+, evaplay+, evalead+ and evafollow+).

// Hybrid bids like Bidder and cuts and plays cards like Player. Both see
// every request and notification, so each keeps its model of the deal.
type Hybrid struct{ Bidder, Player giretra.Player }

func (h Hybrid) ChooseCut(ctx context.Context, s giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	return h.Player.ChooseCut(ctx, s, m)
}

func (h Hybrid) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	// Both see the request (the player learns the negotiation from it).
	_, _ = h.Player.ChooseAction(ctx, v)
	return h.Bidder.ChooseAction(ctx, v)
}

func (h Hybrid) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	return h.Player.ChooseCard(ctx, v)
}

func (h Hybrid) Notify(ctx context.Context, s giretra.Position, e *giretra.Event) error {
	_ = h.Bidder.Notify(ctx, s, e)
	return h.Player.Notify(ctx, s, e)
}

// Mixed cuts and bids like Eva and plays Eva's card either on leads
// (EvaLeads) or on follows, Other's card otherwise; both are asked for
// every card.
type Mixed struct {
	Eva, Other giretra.Player
	EvaLeads   bool
}

func (m Mixed) ChooseCut(ctx context.Context, s giretra.Position, ms *giretra.MatchState) (giretra.Cut, error) {
	return m.Eva.ChooseCut(ctx, s, ms)
}

func (m Mixed) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	_, _ = m.Other.ChooseAction(ctx, v)
	return m.Eva.ChooseAction(ctx, v)
}

func (m Mixed) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	e, err := m.Eva.ChooseCard(ctx, v)
	b, err2 := m.Other.ChooseCard(ctx, v)
	if (v.State.Current.N == 0) == m.EvaLeads {
		return e, err
	}
	return b, err2
}

func (m Mixed) Notify(ctx context.Context, s giretra.Position, e *giretra.Event) error {
	_ = m.Eva.Notify(ctx, s, e)
	return m.Other.Notify(ctx, s, e)
}
