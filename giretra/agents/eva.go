package agents

import (
	"context"

	"github.com/botarena/gamebot/giretra"
)

// Eva is the engine's DeterministicPlayerAgent ("Eva"), the strongest
// built-in agent: guaranteed/probable trick counting for bids, card
// counting with void inference, partner signals and seat-aware play
// (docs/giretra.md §6). It uses no randomness.
//
// In the engine Eva reads the contract from the match state in-process;
// here it takes it from the negotiation-completed event, which in-process
// players always receive.
type Eva struct {
	seat giretra.Position

	played    giretra.Set // cards played this deal
	remaining giretra.Set // unplayed cards minus the own hand (once synced)

	knownVoids  [4]suits // by seat: did not follow (and, in Colour, did not trump)
	oppVoids    [4]suits // opponents' voids from completed tricks
	oppNoTrump  [4]bool  // opponents seen out of trumps
	preferred   suits    // partner's liked suits
	disliked    suits    // partner's discarded suits
	priority    suits    // partner's priority suits
	lastLead    giretra.Suit
	hasLastLead bool // deliberately not reset between deals, as in the engine

	// The trick in progress, from card-played notifications.
	leader, winner       giretra.Position
	leadSuit             giretra.Suit
	hasLeader, hasWinner bool

	// The deal's contract, from negotiation-completed.
	contract    giretra.Contract
	hasContract bool

	// Shift moves every bidding threshold (announce, compete, double,
	// redouble) by this many score points: negative bids more. Zero is
	// the engine's Eva.
	Shift float64
}

// NewEva returns an Eva agent.
func NewEva() *Eva {
	e := &Eva{}
	e.resetDeal()
	return e
}

func (a *Eva) resetDeal() {
	a.played, a.remaining = 0, giretra.FullDeck
	a.knownVoids, a.oppVoids, a.oppNoTrump = [4]suits{}, [4]suits{}, [4]bool{}
	a.preferred, a.disliked, a.priority = 0, 0, 0
	a.hasLeader, a.hasWinner = false, false
	a.hasContract = false
}

func (a *Eva) team() giretra.Team { return a.seat.Team() }

// ChooseCut always cuts 16 from the top.
func (a *Eva) ChooseCut(_ context.Context, seat giretra.Position, _ *giretra.MatchState) (giretra.Cut, error) {
	a.seat = seat
	return giretra.Cut{Position: 16, FromTop: true}, nil
}

// ---- Notifications -------------------------------------------------------

// Notify keeps the card count, voids, partner signals and the contract.
func (a *Eva) Notify(_ context.Context, seat giretra.Position, e *giretra.Event) error {
	a.seat = seat
	switch e.Kind {
	case giretra.DealStarted:
		a.resetDeal()
	case giretra.NegotiationCompleted:
		if e.Negotiation != nil {
			a.negotiationCompleted(e.Negotiation)
		}
	case giretra.CardPlayed:
		if e.Hand != nil {
			a.cardPlayed(e.Player, e.Card, e.Hand)
		}
	case giretra.TrickCompleted:
		if e.Trick != nil && e.Hand != nil {
			a.trickCompleted(e.Trick, e.Hand)
		}
	}
	return nil
}

func (a *Eva) negotiationCompleted(n *giretra.Negotiation) {
	st, err := n.State()
	if err != nil {
		return
	}
	if c, ok := st.Contract(); ok {
		a.contract, a.hasContract = c, true
	}
	if st.CurrentBid == giretra.NoMode {
		return
	}
	// The partner's Colour announcements are preferred suits, except the
	// trump of the last bid (not of the contract: an engine detail kept).
	for _, x := range n.Actions {
		if x.Type != giretra.Announce || x.Player != a.seat.Partner() || !x.Mode.IsColour() {
			continue
		}
		if st.CurrentBid.IsColour() && st.CurrentBid.Trump() == x.Mode.Trump() {
			continue
		}
		a.preferred.add(x.Mode.Trump())
	}
}

func (a *Eva) cardPlayed(p giretra.Position, c giretra.Card, h *giretra.HandState) {
	a.played |= c.Bit()
	a.remaining &^= c.Bit()
	if h.Over {
		return // the engine's currentTrick is null after the last trick
	}
	// After a 4th card the current trick is already the next, empty one: the
	// engine's agent then sees no winner and infers as if alone (kept).
	t := &h.Current
	m := h.Mode
	if t.N == 1 {
		a.leader, a.hasLeader = p, true
		a.leadSuit = c.Suit()
		a.winner, a.hasWinner = p, true
		return
	}
	a.hasWinner = t.N > 0
	if a.hasWinner {
		a.winner = t.Winner(m)
	}
	a.inferVoids(p, c, t, m)
	if p == a.seat.Partner() && (!a.hasLeader || p != a.leader) && pts(c, m) >= 8 {
		if !a.hasWinner || a.winner.Team() != a.team() {
			a.disliked.add(c.Suit())
			a.preferred.del(c.Suit())
		}
	}
}

// inferVoids: not following means void in the led suit; in Colour, not
// trumping either means out of trumps unless the partner was winning with a
// side card.
func (a *Eva) inferVoids(p giretra.Position, c giretra.Card, t *giretra.Trick, m giretra.Mode) {
	if !a.hasLeader || p == a.leader || c.Suit() == a.leadSuit {
		return
	}
	a.knownVoids[p].add(a.leadSuit)
	ts, ok := trumpSuit(m)
	if !ok || c.Suit() == ts {
		return
	}
	if t.N >= 2 && a.hasWinner && a.winner.Team() == p.Team() && t.Cards[t.WinnerIndex(m)].Suit() != ts {
		return
	}
	a.knownVoids[p].add(ts)
}

func (a *Eva) trickCompleted(t *giretra.Trick, h *giretra.HandState) {
	m := h.Mode
	a.inferOpponentVoids(t, m)
	a.analyzePartner(t, h)
	// Both opponents void in a (non-trump) suit: the partner's priority.
	for su := range giretra.Suit(4) {
		if isTrumpSuit(su, m) {
			continue
		}
		if a.knownVoids[a.seat.Next()].has(su) && a.knownVoids[a.seat.Partner().Next()].has(su) {
			a.priority.add(su)
		}
	}
	a.hasLeader, a.hasWinner = false, false
}

func (a *Eva) inferOpponentVoids(t *giretra.Trick, m giretra.Mode) {
	if t.N < 2 {
		return
	}
	led := t.Led()
	ts, colour := trumpSuit(m)
	for i := 1; i < int(t.N); i++ {
		p, c := t.PlayerAt(i), t.Cards[i]
		if p.Team() == a.team() || c.Suit() == led {
			continue
		}
		a.oppVoids[p].add(led)
		if !colour || c.Suit() == ts {
			continue
		}
		w := 0
		for j := 1; j < i; j++ {
			if giretra.Beats(t.Cards[j], t.Cards[w], led, m) {
				w = j
			}
		}
		if t.PlayerAt(w).Team() == p.Team() && t.Cards[w].Suit() != ts {
			continue
		}
		a.oppNoTrump[p] = true
	}
}

// cardOf is the card seat p played to t.
func cardOf(t *giretra.Trick, p giretra.Position) giretra.Card {
	return t.Cards[(p-t.Leader)&3]
}

func (a *Eva) analyzePartner(t *giretra.Trick, h *giretra.HandState) {
	m := h.Mode
	partner := a.seat.Partner()
	if t.Leader == a.seat && t.Winner(m) == a.seat {
		if pc := cardOf(t, partner); pc.Suit() != t.Led() && isMaster(pc, m, 0, a.played) {
			a.priority.add(pc.Suit())
		}
	}
	// Suits the partner led and lost stay preferred.
	for i := range h.Completed {
		r := &h.Completed[i]
		if r.Leader == partner && r.WinnerIndex(m) != 0 {
			a.preferred.add(r.Led())
		}
	}
	a.analyzeCannotFollow(h, m)
}

// analyzeCannotFollow looks at the tricks this seat led and won with its
// lead card while the partner could not follow: discarding a suit upwards
// signals priority, downwards dislike.
func (a *Eva) analyzeCannotFollow(h *giretra.HandState, m giretra.Mode) {
	partner := a.seat.Partner()
	var cards []giretra.Card
	for i := range h.Completed {
		r := &h.Completed[i]
		if r.Leader != a.seat || r.WinnerIndex(m) != 0 {
			continue
		}
		if pc := cardOf(r, partner); pc.Suit() != r.Led() {
			cards = append(cards, pc)
		}
	}
	if len(cards) == 0 {
		return
	}
	var partnerSuits suits
	for su := range giretra.Suit(4) {
		var group []giretra.Card
		for _, c := range cards {
			if c.Suit() == su {
				group = append(group, c)
			}
		}
		if len(group) == 0 {
			continue
		}
		partnerSuits.add(su)
		if len(group) > 1 {
			if str(group[0], m) < str(group[1], m) {
				a.priority.add(su)
				a.preferred.add(su)
				a.disliked.del(su)
			} else {
				a.disliked.add(su)
				a.priority.del(su)
			}
		}
		// The engine's single-card rule needs a strength ≥ 10, which no
		// card has: it never fires.
	}
	if m.IsColour() || len(cards) < 2 || a.priority != 0 || a.disliked != 0 || a.preferred != 0 {
		return
	}
	playedSuits := suitsOf(a.played)
	for su := range giretra.Suit(4) {
		if !partnerSuits.has(su) && !playedSuits.has(su) {
			a.preferred.add(su)
		}
	}
}
