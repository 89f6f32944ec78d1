package bot

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
)

// predicting wraps an agent and, at each of its card decisions, asks the
// search's model of it (catchUp, then answer, from the table's view
// alone) what it will play.
type predicting struct {
	giretra.Player
	fresh          func() giretra.Player
	neg            *giretra.Negotiation
	asked, matched *int
}

func (p *predicting) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	if e.Kind == giretra.NegotiationCompleted {
		p.neg = e.Negotiation
	}
	return p.Player.Notify(ctx, seat, e)
}

func (p *predicting) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	c, err := p.Player.ChooseCard(ctx, v)
	if v.Valid.Count() > 1 {
		model := p.fresh()
		catchUp(model, v.Seat, v, &playCtx{neg: p.neg})
		*p.asked++
		if answer(model, v.Seat, v, v.Hand, &v.State.Current) == c {
			*p.matched++
		}
	}
	return c, err
}

// TestModelsPredictTheAgents: a model caught up from the table's events
// plays what the agent plays. Not always: Eva keeps her last lead across
// deals, which a model started at the deal cannot know.
func TestModelsPredictTheAgents(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fresh func() giretra.Player
		min   float64
	}{
		{"eva", func() giretra.Player { return agents.NewEva() }, 0.97},
		{"calculating", func() giretra.Player { return agents.NewCalculating(rand.New(rand.NewPCG(0, 0))) }, 1}, // the match asks it to cut
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked, matched := 0, 0
			var ps [4]giretra.Player
			for s := range giretra.Position(4) {
				ps[s] = &predicting{Player: tc.fresh(), fresh: tc.fresh, asked: &asked, matched: &matched}
			}
			rng := rand.New(rand.NewPCG(11, 12))
			for i := range 4 {
				cfg := giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: 25, FirstDealer: giretra.Position(i)}
				if _, err := giretra.RunMatch(t.Context(), ps, cfg, rng, nil); err != nil {
					t.Fatal(err)
				}
			}
			rate := float64(matched) / float64(asked)
			t.Logf("%d of %d card decisions predicted (%.1f%%)", matched, asked, 100*rate)
			if asked < 100 || rate < tc.min {
				t.Errorf("predicted %d of %d, want at least %.0f%%", matched, asked, 100*tc.min)
			}
		})
	}
}

// capture keeps the first card decision of an Eva seat made mid-trick
// with a choice, half-way into a deal.
type capture struct {
	*agents.Eva
	neg  *giretra.Negotiation
	view *giretra.PlayView
}

func (c *capture) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	if e.Kind == giretra.NegotiationCompleted {
		c.neg = e.Negotiation
	}
	return c.Eva.Notify(ctx, seat, e)
}

func (c *capture) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	if c.view == nil && v.Valid.Count() > 1 && v.State.Current.N > 0 && len(v.State.Completed) >= 3 {
		st := *v.State
		st.Completed = append([]giretra.Trick(nil), v.State.Completed...)
		c.view = &giretra.PlayView{Seat: v.Seat, Hand: v.Hand, State: &st, Match: v.Match, Valid: v.Valid}
	}
	return c.Eva.ChooseCard(ctx, v)
}

// BenchmarkModelAnswer is one prediction of Eva's card inside the search
// (the cost the policy adds per node of the current trick).
func BenchmarkModelAnswer(b *testing.B) {
	c := &capture{Eva: agents.NewEva()}
	ps := [4]giretra.Player{c, agents.NewEva(), agents.NewEva(), agents.NewEva()}
	cfg := giretra.MatchConfig{TargetScore: 151, ColourSweepPoints: 25}
	if _, err := giretra.RunMatch(b.Context(), ps, cfg, rand.New(rand.NewPCG(3, 4)), nil); err != nil || c.view == nil {
		b.Fatal("no decision captured", err)
	}
	v := c.view
	base := agents.NewEva()
	catchUp(base, v.Seat, v, &playCtx{neg: c.neg})
	b.ReportAllocs()
	for b.Loop() {
		e := *base
		answer(&e, v.Seat, v, v.Hand, &v.State.Current)
	}
}
