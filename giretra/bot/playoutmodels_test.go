package bot

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
)

// TestPlayoutModelsPlayAsTheAgents: a playout whose modelled seats are
// Eva and Calculating plays, card for card, the deal those agents play
// when the referee's events tell them the deal (an oracle: the agents
// themselves), the other seats playing the heuristic in both.
func TestPlayoutModelsPlayAsTheAgents(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	ctx := context.Background()
	for i := range 40 {
		deck := giretra.Shuffle(rng)
		dealer := giretra.Position(i % 4)
		var hands [4]giretra.Set
		for j, c := range deck {
			hands[(int(dealer)+1+j)%4] |= c.Bit()
		}
		mode := giretra.Mode(i % 6)
		announcer := dealer.Next()
		neg := &giretra.Negotiation{Dealer: dealer, Actions: []giretra.Action{{Type: giretra.Announce, Player: announcer, Mode: mode}}}
		for p := announcer.Next(); p != announcer; p = p.Next() {
			neg.Actions = append(neg.Actions, giretra.Action{Type: giretra.Accept, Player: p})
		}
		st, err := neg.State()
		if err != nil || !st.Complete() {
			t.Fatalf("negotiation %v: %v", neg.Actions, err)
		}
		ctr, _ := st.Contract()
		match := giretra.NewMatchState(151, dealer)

		// The agents told the deal by events, as the referee does.
		eva, calc := agents.NewEva(), newCalculatingModel()
		seats := map[giretra.Position]giretra.Player{giretra.Left: eva, giretra.Right: calc}
		for p, pl := range seats {
			_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.DealStarted, Match: &match})
			_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.NegotiationCompleted, Negotiation: neg, Match: &match})
		}
		h := hands
		hs := giretra.HandState{Mode: mode, Current: giretra.NewTrick(dealer.Next())}
		var want []giretra.Card
		for !hs.Over {
			p := hs.Current.Next()
			valid := giretra.LegalPlays(h[p], &hs.Current, mode)
			v := giretra.PlayView{Seat: p, Hand: h[p], State: &hs, Match: &match, Valid: valid}
			var c giretra.Card
			if pl, ok := seats[p]; ok {
				c, _ = pl.ChooseCard(ctx, &v)
			} else {
				c = heuristicCard(&v, ctr, neg)
			}
			h[p] &^= c.Bit()
			done := hs.Play(c)
			want = append(want, c)
			for q, pl := range seats {
				_ = pl.Notify(ctx, q, &giretra.Event{Kind: giretra.CardPlayed, Player: p, Card: c, Hand: &hs, Match: &match})
				if done {
					last := hs.Completed[len(hs.Completed)-1]
					_ = pl.Notify(ctx, q, &giretra.Event{Kind: giretra.TrickCompleted, Trick: &last, Winner: last.Winner(mode), Hand: &hs, Match: &match})
				}
			}
		}

		sm := seatModels{seats: 1<<giretra.Left | 1<<giretra.Right}
		sm.kind[giretra.Left], sm.kind[giretra.Right] = modelEva, modelCalc
		sm.start(&match, neg)
		h = hands
		ps := giretra.HandState{Mode: mode, Current: giretra.NewTrick(dealer.Next())}
		if !finishDeal(&h, &ps, ctr, neg, &sm, nil, &match) {
			t.Fatalf("deal %d: the playout found no legal card", i)
		}
		var got []giretra.Card
		for _, tr := range ps.Completed {
			got = append(got, tr.Cards[:tr.N]...)
		}
		if len(got) != len(want) {
			t.Fatalf("deal %d: %d cards played, want %d", i, len(got), len(want))
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("deal %d (%v): card %d is %v, the agents played %v", i, mode, j, got[j], want[j])
			}
		}
	}
}
