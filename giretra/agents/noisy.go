package agents

import (
	"context"
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
)

// Noisy wraps a player that, with probability Eps, bids or plays a
// uniformly random offered option instead of its own choice: the model of
// a player who sometimes errs (or plays by a rule no model knows). A bot
// must not do worse against it than against the player it wraps.
type Noisy struct {
	giretra.Player
	Eps float64
	rng *rand.Rand
}

// NoisyEps is the error rate of the "noisy-eva" agent.
const NoisyEps = 0.1

// NewNoisy wraps p; rng draws both the errors and the random options.
func NewNoisy(p giretra.Player, eps float64, rng *rand.Rand) *Noisy {
	return &Noisy{Player: p, Eps: eps, rng: rng}
}

// ChooseAction implements giretra.Player.
func (n *Noisy) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := n.Player.ChooseAction(ctx, v)
	if err == nil && len(v.Valid) > 0 && n.rng.Float64() < n.Eps {
		a = v.Valid[n.rng.IntN(len(v.Valid))]
	}
	return a, err
}

// ChooseCard implements giretra.Player.
func (n *Noisy) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	c, err := n.Player.ChooseCard(ctx, v)
	if err == nil && v.Valid != 0 && n.rng.Float64() < n.Eps {
		cs := v.Valid.Cards()
		c = cs[n.rng.IntN(len(cs))]
	}
	return c, err
}
