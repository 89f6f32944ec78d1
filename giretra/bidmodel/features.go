// Package bidmodel is a learned Giretra bid evaluator: a small network
// that values an offered negotiation action from what the bidding seat
// knows (its five cards, the negotiation so far, the match score), fitted
// on actions valued on the true deal after the rest of the negotiation
// and a playout (giretra/bot's GenBidDeal). Where the bot's simulation
// plays candidate contracts out on deals sampled for the bids seen, the
// evaluator has learned from many deals what a situation like this one
// ends in, the rest of the negotiation included.
//
// Everything is deterministic: the features are exact, the fit is
// single-threaded with a seeded order, and the model is stored as
// little-endian float32s.
package bidmodel

import (
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
)

// Situation is what a bidding seat knows.
type Situation struct {
	Seat   giretra.Position
	Hand   giretra.Set // five cards
	Neg    *giretra.Negotiation
	Bid    giretra.Bidding // Neg's state
	Ours   int             // match points of the seat's team
	Theirs int
	Target int
	// Mix is what the bidding seat believes of the others' play: for its
	// partner, the next seat and the previous one, the weights of its
	// behaviour mixture on Eva, Calculating, our heuristic and random
	// play (NewSituation leaves the mixture before any evidence).
	Mix [3][4]float32
}

// PriorMix is a behaviour mixture before any evidence (giretra/bot's
// modelPrior).
var PriorMix = [4]float32{0.3, 0.2, 0.35, 0.15}

// NewSituation reads v; ok is false when its negotiation does not replay.
func NewSituation(v *giretra.BidView) (Situation, bool) {
	s := Situation{Seat: v.Seat, Hand: v.Hand, Neg: v.Negotiation, Target: 151, Mix: [3][4]float32{PriorMix, PriorMix, PriorMix}}
	if v.Negotiation == nil {
		return s, false
	}
	st, err := v.Negotiation.State()
	if err != nil {
		return s, false
	}
	s.Bid = st
	if m := v.Match; m != nil {
		t := v.Seat.Team()
		s.Ours, s.Theirs = m.Points[t], m.Points[t.Other()]
		if m.TargetScore > 0 {
			s.Target = m.TargetScore
		}
	}
	return s, true
}

// NumFeatures is the length of a feature vector.
const NumFeatures = 102

// context features of a situation, shared by its actions.
const nContext = 78

// Context writes the situation's features to x[:nContext].
func (s *Situation) Context(x []float32) {
	x = x[:nContext]
	clear(x)
	b := &s.Bid
	x[int(s.Seat-b.Dealer.Next())&3] = 1
	x[4] = float32(len(s.Neg.Actions)) / 10
	if b.CurrentBid == giretra.NoMode {
		x[5] = 1
	} else {
		x[6+int(b.CurrentBid)] = 1
	}
	if b.CurrentBid != giretra.NoMode {
		switch {
		case b.CurrentBidder == s.Seat:
			x[12] = 1
		case b.CurrentBidder == s.Seat.Partner():
			x[13] = 1
		default:
			x[14] = 1
		}
	}
	x[15] = b2f(b.Locked)
	x[16] = b2f(b.TeamColour[s.Seat.Team()] != giretra.NoMode)
	t := float32(max(s.Target, 1))
	x[17], x[18] = float32(s.Ours)/t, float32(s.Theirs)/t
	x[19] = b2f(s.Target > 151)
	x[20] = float32(agents.Aggressiveness(s.Ours, s.Theirs, s.Target))
	starter := b.Dealer.Next() == s.Seat
	for m := range giretra.Mode(6) {
		g, p := agents.HandTricks(s.Hand, m, starter)
		x[21+2*int(m)], x[22+2*int(m)] = float32(g)/3, float32(p)/3
		x[33+int(m)] = float32(giretra.SetPoints(s.Hand, m)) / float32(m.Total()) * 5
	}
	for su := range giretra.Suit(4) {
		x[39+int(su)] = float32(s.Hand.CountSuit(su)) / 3
		if s.Hand.OfSuit(su) == 0 {
			x[47]++
		}
	}
	for su := range giretra.Suit(4) {
		for i, r := range [4]giretra.Rank{giretra.Jack, giretra.Nine, giretra.Ace, giretra.Ten} {
			if s.Hand.Has(giretra.NewCard(r, su)) {
				x[43+i]++
			}
		}
	}
	for m := range giretra.Mode(6) {
		if b.AnnounceIndex[m] < 0 {
			continue
		}
		if by := b.AnnouncedBy[m]; by == s.Seat.Partner() {
			x[48+int(m)] = 1
		} else if by.Team() != s.Seat.Team() {
			x[54+int(m)] = 1
		}
		if b.DoubleIndex[m] >= 0 {
			x[60] = 1
		}
		if b.Redoubled[m] {
			x[61] = 1
		}
	}
	x[62] = b2f(b.Accepted(s.Seat.Partner()))
	x[63] = float32(b.ConsecutiveAccepts) / 3
	x[64] = b2f(starter)
	x[65] = 1 // bias of the first layer's inputs
	for i := range 3 {
		copy(x[66+4*i:70+4*i], s.Mix[i][:])
	}
}

// Action writes the features of action a to x[nContext:NumFeatures]; the
// context must be in x already. ok is false when a is not legal here.
func (s *Situation) Action(x []float32, a giretra.Action) bool {
	y := x[nContext:NumFeatures]
	clear(y)
	y[int(a.Type)] = 1
	if a.Type != giretra.Accept && a.Mode < 6 {
		y[4+int(a.Mode)] = 1
	}
	nb := s.Bid
	if nb.Apply(len(s.Neg.Actions), a) != nil {
		return false
	}
	c, ok := nb.Contract()
	if !ok {
		return false
	}
	y[10+int(c.Mode)] = 1
	y[16] = float32(c.Multiplier.Factor()) / 4
	y[17] = b2f(c.AnnouncerTeam() == s.Seat.Team())
	y[18] = b2f(c.Announcer == s.Seat)
	starter := s.Bid.Dealer.Next() == s.Seat
	g, p := agents.HandTricks(s.Hand, c.Mode, starter)
	y[19], y[20] = float32(g)/3, float32(p)/3
	y[21] = float32(giretra.SetPoints(s.Hand, c.Mode)) / float32(c.Mode.Total()) * 5
	if c.Mode.IsColour() {
		y[22] = float32(s.Hand.CountSuit(c.Mode.Trump())) / 3
		y[23] = b2f(s.Hand.Has(giretra.NewCard(giretra.Jack, c.Mode.Trump())))
	}
	return true
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
