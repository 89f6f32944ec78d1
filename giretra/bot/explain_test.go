package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
)

// logged notes every card a seat plays, by deal and trick.
type logged struct {
	giretra.Player
	cards *[]string
}

func (l logged) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	c, err := l.Player.ChooseCard(ctx, v)
	*l.cards = append(*l.cards, fmt.Sprintf("%v deal %d trick %d %s", v.Seat, len(v.Match.Deals), len(v.State.Completed)+1, c.Short()))
	return c, err
}

func (l logged) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := l.Player.ChooseAction(ctx, v)
	*l.cards = append(*l.cards, fmt.Sprintf("%v deal %d bids %v", v.Seat, len(v.Match.Deals), a))
	return a, err
}

// TestExplainChangesNothing: a seeded match played with and without
// listening to the bots' card values makes the same decisions; each
// value set covers the cards the bot could play and names the one it
// played; a search plays its best valued card; and a search that cannot
// solve enough deals hands its decision to the rollouts.
func TestExplainChangesNothing(t *testing.T) {
	play := func(listen bool) ([]string, []CardValues) {
		var decisions []string
		var values []CardValues
		var players [4]giretra.Player
		for p := range 4 {
			var inner giretra.Player = &randomPlayer{rng: rand.New(rand.NewPCG(7, uint64(p)))}
			if p%2 == 0 {
				// A budget that never fires: the work limit ends each search,
				// so a loaded machine decides as an idle one.
				b := New(Config{Budget: time.Hour, Effort: 0.25})
				if listen {
					b.Explain(func(cv CardValues) { values = append(values, cv) })
				}
				inner = b
			}
			players[p] = logged{Player: inner, cards: &decisions}
		}
		cfg := giretra.MatchConfig{TargetScore: 60, FirstDealer: giretra.Left}
		if _, err := giretra.RunMatch(t.Context(), players, cfg, rand.New(rand.NewPCG(42, 1)), nil); err != nil {
			t.Fatal(err)
		}
		return decisions, values
	}
	quiet, none := play(false)
	heard, values := play(true)
	if len(none) != 0 {
		t.Fatalf("values heard without a listener: %d", len(none))
	}
	if !slices.Equal(quiet, heard) {
		for i := range min(len(quiet), len(heard)) {
			if quiet[i] != heard[i] {
				t.Fatalf("decision %d: %s without the listener, %s with it", i, quiet[i], heard[i])
			}
		}
		t.Fatalf("%d decisions without the listener, %d with it", len(quiet), len(heard))
	}
	if len(values) == 0 {
		t.Fatal("no card values heard")
	}
	methods := map[string]int{}
	lateRollouts := 0 // searches too big to solve on enough deals
	for _, cv := range values {
		methods[cv.Method]++
		if cv.Method == ExplainRollout && cv.Trick > 1 {
			lateRollouts++
		}
		want := fmt.Sprintf("%v deal %d trick %d %s", cv.Seat, cv.Deal, cv.Trick, cv.Chosen.Short())
		if !slices.Contains(heard, want) {
			t.Fatalf("values %+v: no decision %q", cv, want)
		}
		if cv.Valid.Count() < 2 || !cv.Valid.Has(cv.Chosen) || !cv.Valid.Has(cv.Heuristic) || cv.Samples < 1 {
			t.Fatalf("values %+v", cv)
		}
		for c := range giretra.FullDeck.All() {
			if !cv.Valid.Has(c) && cv.Value[c] != 0 {
				t.Fatalf("a value for %v, which was not playable: %+v", c, cv)
			}
			if cv.Method == ExplainSearch && cv.Valid.Has(c) && cv.Value[c] > cv.Value[cv.Chosen]+1e-9 {
				t.Fatalf("the search played %v, valued below %v: %+v", cv.Chosen, c, cv)
			}
		}
	}
	if methods[ExplainSearch] == 0 || methods[ExplainRollout] == 0 || lateRollouts == 0 {
		t.Fatalf("values by method: %v (rollouts after the first trick: %d), want both, and rollouts where a search gave up", methods, lateRollouts)
	}
}
