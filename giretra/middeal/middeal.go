// Package middeal makes Giretra positions in the middle of deals, and the
// engine's request bodies for them: what cmd/loadtest sends and the
// server's benchmarks read, so that both measure the same requests.
package middeal

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/wire"
)

// State is a position in the middle of a deal, for the seat to play.
type State struct {
	Seat   giretra.Position
	Cards  giretra.Set // the seat's hand
	Hand   giretra.HandState
	Match  giretra.MatchState
	Neg    giretra.Negotiation
	Last   giretra.Card // the card played last
	LastBy giretra.Position
}

// States plays n random deals (seeded 0..n−1, modes in turn) to their 3rd
// or 4th trick and returns the position of the seat to play in each.
func States(n int) []State {
	out := make([]State, 0, n)
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(i), 17))
		deck := giretra.Shuffle(rng)
		dealer := giretra.Position(i % 4)
		hands, next := giretra.DealFirst(&deck, dealer)
		giretra.DealRest(&deck, dealer, &hands, next)
		mode := giretra.Mode(i % 6)
		neg := giretra.Negotiation{Dealer: dealer, Actions: []giretra.Action{
			{Type: giretra.Announce, Player: dealer.Next(), Mode: mode},
			{Type: giretra.Accept, Player: dealer.Next().Next()},
			{Type: giretra.Accept, Player: dealer.Previous()},
			{Type: giretra.Accept, Player: dealer},
		}}
		st := State{Hand: giretra.HandState{Mode: mode, Current: giretra.NewTrick(dealer.Next())}, Neg: neg}
		for range 9 + i%4 {
			p := st.Hand.Current.Next()
			valid := giretra.LegalPlays(hands[p], &st.Hand.Current, mode).Cards()
			st.Last, st.LastBy = valid[rng.IntN(len(valid))], p
			hands[p] = hands[p].Without(st.Last)
			st.Hand.Play(st.Last)
		}
		st.Seat = st.Hand.Current.Next()
		st.Cards = hands[st.Seat]
		st.Match = giretra.NewMatchState(151, dealer)
		out = append(out, st)
	}
	return out
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the wire types always encode
	}
	return b
}

// CardPlayed is the card-played notification of the last card.
func (s *State) CardPlayed() []byte {
	return encode(wire.EncodeEvent(wire.Engine, &giretra.Event{Kind: giretra.CardPlayed, Player: s.LastBy, Card: s.Last, Hand: &s.Hand, Match: &s.Match}, giretra.Normal))
}

// NegotiationCompleted is the notification of the deal's negotiation.
func (s *State) NegotiationCompleted() []byte {
	return encode(wire.EncodeEvent(wire.Engine, &giretra.Event{Kind: giretra.NegotiationCompleted, Negotiation: &s.Neg, Match: &s.Match}, giretra.Normal))
}

// CardRequest is the seat's choose-card request.
func (s *State) CardRequest() []byte {
	view := giretra.PlayView{Seat: s.Seat, Hand: s.Cards, State: &s.Hand, Match: &s.Match, Valid: giretra.LegalPlays(s.Cards, &s.Hand.Current, s.Hand.Mode)}
	return encode(wire.EncodeCard(wire.Engine, &view, giretra.Normal))
}
