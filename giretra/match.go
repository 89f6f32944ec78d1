package giretra

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// MatchState is the match as the engine shows it to players.
type MatchState struct {
	TargetScore int
	Points      [2]int // match points per team
	Dealer      Position
	Complete    bool
	Winner      Team // NoTeam until Complete
	Deals       []DealResult
}

// NewMatchState starts a match.
func NewMatchState(target int, firstDealer Position) MatchState {
	return MatchState{TargetScore: target, Dealer: firstDealer, Winner: NoTeam}
}

// WithDeal returns the state after deal r (MatchState.WithDeal): totals,
// rotated dealer, target raised by 100 when both teams reach it, winner.
func (ms MatchState) WithDeal(r DealResult) MatchState {
	n := ms
	n.Deals = append(ms.Deals[:len(ms.Deals):len(ms.Deals)], r)
	n.Dealer = ms.Dealer.Next()
	n.Points[0] += r.MatchPoints[0]
	n.Points[1] += r.MatchPoints[1]
	if r.SweepBonus > 0 {
		n.Points[r.SweepingTeam] += r.SweepBonus
	}
	if r.IsInstantWin {
		n.Complete, n.Winner = true, r.SweepingTeam
		return n
	}
	t := n.TargetScore
	switch {
	case n.Points[0] >= t && n.Points[1] >= t:
		n.TargetScore += 100
	case n.Points[0] >= t && n.Points[0] > n.Points[1]:
		n.Complete, n.Winner = true, Team1
	case n.Points[1] >= t && n.Points[1] > n.Points[0]:
		n.Complete, n.Winner = true, Team2
	}
	return n
}

// HandState is the card play of a deal so far.
type HandState struct {
	Mode       Mode
	CardPoints [2]int
	TricksWon  [2]int
	Completed  []Trick
	Current    Trick // the trick in progress; N == 0 and Current.Leader is the next leader
	// Over is set after the 8th trick (the wire omits currentTrick then).
	Over bool
}

// Played is every card played this deal, the current trick included.
func (h *HandState) Played() Set {
	var s Set
	for i := range h.Completed {
		s |= h.Completed[i].Set()
	}
	return s | h.Current.Set()
}

// Play adds card c for the seat to play; it completes the trick when it is
// the 4th card and reports whether it did.
func (h *HandState) Play(c Card) (done bool) {
	h.Current.Add(c)
	if !h.Current.Complete() {
		return false
	}
	t := h.Current
	w := t.Winner(h.Mode)
	pts := t.Points(h.Mode)
	h.Completed = append(h.Completed, t)
	if len(h.Completed) == 8 {
		pts += 10
		h.Over = true
	}
	h.CardPoints[w.Team()] += pts
	h.TricksWon[w.Team()]++
	h.Current = NewTrick(w)
	return true
}

// Cut is a cutter's answer.
type Cut struct {
	Position int // 6..26
	FromTop  bool
}

// Valid reports whether the cut is within the engine's range.
func (c Cut) Valid() bool { return c.Position >= 6 && c.Position <= 26 }

// BidView is what a player sees when asked to bid.
type BidView struct {
	Seat        Position
	Hand        Set
	Negotiation *Negotiation
	Match       *MatchState
	Valid       []Action
}

// PlayView is what a player sees when asked for a card.
type PlayView struct {
	Seat  Position
	Hand  Set
	State *HandState
	Match *MatchState
	Valid Set
}

// EventKind names a notification.
type EventKind uint8

const (
	DealStarted EventKind = iota
	NegotiationCompleted
	CardPlayed
	TrickCompleted
	DealEnded
	MatchEnded
)

var eventNames = [6]string{"deal-started", "negotiation-completed", "card-played", "trick-completed", "deal-ended", "match-ended"}

func (k EventKind) String() string {
	if k < 6 {
		return eventNames[k]
	}
	return "unknown"
}

// EventNames lists the notification names, in the engine's order.
func EventNames() []string { return eventNames[:] }

// ParseEventKind parses a notification name as used in URLs and bot.meta.json.
func ParseEventKind(s string) (EventKind, bool) {
	for i, n := range eventNames {
		if n == s {
			return EventKind(i), true
		}
	}
	return 0, false
}

// Event is a notification. Fields not relevant to Kind are zero/nil.
type Event struct {
	Kind        EventKind
	Match       *MatchState
	Negotiation *Negotiation // NegotiationCompleted
	Hand        *HandState   // CardPlayed, TrickCompleted, DealEnded
	Player      Position     // CardPlayed
	Card        Card         // CardPlayed
	Trick       *Trick       // TrickCompleted
	Winner      Position     // TrickCompleted
	Result      *DealResult  // DealEnded
}

// Multiplier follows the deal's multiplier through the events told to a
// seat: Normal when a deal starts, the contract's once its negotiation
// completes, cur otherwise.
func (e *Event) Multiplier(cur Multiplier) Multiplier {
	switch e.Kind {
	case DealStarted:
		return Normal
	case NegotiationCompleted:
		if st, err := e.Negotiation.State(); err == nil {
			if c, ok := st.Contract(); ok {
				return c.Multiplier
			}
		}
	}
	return cur
}

// Player decides for one seat of one match. Implementations may keep state
// between calls; views and events must not be modified or retained past the
// call, except through copies.
type Player interface {
	ChooseCut(ctx context.Context, seat Position, match *MatchState) (Cut, error)
	ChooseAction(ctx context.Context, v *BidView) (Action, error)
	ChooseCard(ctx context.Context, v *PlayView) (Card, error)
	Notify(ctx context.Context, seat Position, e *Event) error
}

// MatchConfig configures RunMatch.
type MatchConfig struct {
	TargetScore       int
	FirstDealer       Position
	ColourSweepPoints int // 0: a Colour sweep wins the match; >0: worth this × multiplier
	// Notify[k] reports whether event k is sent to seat s (bot.meta.json
	// notifications); nil sends everything.
	Notify func(s Position, k EventKind) bool
	// MaxDeals stops a match that runs too long (0: 1000).
	MaxDeals int
	// Deal, when set, sees each deal's full hands (all eight cards of each
	// seat) before the bidding: for measurements that give a player the
	// true deal, never for play.
	Deal func(dealer Position, hands [4]Set)
	// Cut, when set, replaces the players' cuts (each is still asked):
	// two matches on the same deck seed then deal the same cards, as a
	// duplicate comparison needs.
	Cut func(deal int) Cut
}

// IllegalError is a decision outside the offered options.
type IllegalError struct {
	Seat   Position
	Kind   string
	Detail string
}

func (e *IllegalError) Error() string {
	return fmt.Sprintf("%v: illegal %s: %s", e.Seat, e.Kind, e.Detail)
}

// DecisionError wraps a player's failure to decide.
type DecisionError struct {
	Seat Position
	Kind string
	Err  error
}

func (e *DecisionError) Error() string { return fmt.Sprintf("%v: %s: %v", e.Seat, e.Kind, e.Err) }
func (e *DecisionError) Unwrap() error { return e.Err }

// Shuffle returns a freshly shuffled deck (Fisher-Yates, as Deck.CreateShuffled).
func Shuffle(rng *rand.Rand) [32]Card {
	var d [32]Card
	for i := range d {
		d[i] = Card(i)
	}
	for i := 31; i > 0; i-- {
		j := rng.IntN(i + 1)
		d[i], d[j] = d[j], d[i]
	}
	return d
}

// CutDeck applies a cut: take pos cards from the top (or bottom) and put
// the bottom part on top.
func CutDeck(d [32]Card, c Cut) [32]Card {
	n := c.Position
	if !c.FromTop {
		n = 32 - n
	}
	var out [32]Card
	copy(out[:], d[n:])
	copy(out[32-n:], d[:n])
	return out
}

// DealFirst deals 3 then 2 cards to each seat clockwise from the dealer's
// left; DealRest deals the last 3 each. They return the hands and the
// number of cards dealt.
func DealFirst(d *[32]Card, dealer Position) (hands [4]Set, next int) {
	for _, n := range [2]int{3, 2} {
		for i := 1; i <= 4; i++ {
			p := (dealer + Position(i)) & 3
			for range n {
				hands[p] |= d[next].Bit()
				next++
			}
		}
	}
	return hands, next
}

// DealRest completes the hands after the negotiation.
func DealRest(d *[32]Card, dealer Position, hands *[4]Set, next int) {
	for i := 1; i <= 4; i++ {
		p := (dealer + Position(i)) & 3
		for range 3 {
			hands[p] |= d[next].Bit()
			next++
		}
	}
}
