package agents

import (
	"context"
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
)

// Random is the engine's RandomPlayerAgent ("Kialasoa"): a uniform choice
// among the offered options, and a uniform cut.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a Random agent drawing from rng.
func NewRandom(rng *rand.Rand) *Random { return &Random{rng: rng} }

// randomCut is the engine's Next(6, 27) then Next(2) == 0.
func randomCut(rng *rand.Rand) giretra.Cut {
	pos := 6 + rng.IntN(21)
	return giretra.Cut{Position: pos, FromTop: rng.IntN(2) == 0}
}

// ChooseCut cuts uniformly in 6..26, from the top or the bottom.
func (r *Random) ChooseCut(context.Context, giretra.Position, *giretra.MatchState) (giretra.Cut, error) {
	return randomCut(r.rng), nil
}

// ChooseAction picks one of the offered actions uniformly.
func (r *Random) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	return v.Valid[r.rng.IntN(len(v.Valid))], nil
}

// ChooseCard picks one of the legal cards uniformly.
func (r *Random) ChooseCard(_ context.Context, v *giretra.PlayView) (giretra.Card, error) {
	n := r.rng.IntN(v.Valid.Count())
	for c := range v.Valid.All() {
		if n == 0 {
			return c, nil
		}
		n--
	}
	return giretra.NoCard, nil // unreachable for a non-empty Valid
}

// Notify ignores every event.
func (r *Random) Notify(context.Context, giretra.Position, *giretra.Event) error { return nil }
