package wire

import (
	"encoding/json"
	"fmt"
	"github.com/botarena/gamebot/internal/problem"

	"github.com/botarena/gamebot/giretra"
)

// This file is the reference the fast decoders (decode.go) are held
// against: decoders written on encoding/json, with the validation run on
// the decoded structs. Slow and simple; the oracle tests and fuzzers
// compare the two on every input.

func refMalformed(format string, args ...any) error { return problem.Malformedf(format, args...) }

func refImpossible(format string, args ...any) error { return problem.Impossiblef(format, args...) }

// Lenient input shapes: the union of both dialects.
type (
	inPlayed struct {
		Player string `json:"player"`
		Card   *Card  `json:"card"`
	}
	inTrick struct {
		Leader      string     `json:"leader"`
		PlayedCards []inPlayed `json:"playedCards"` // engine
		Cards       []inPlayed `json:"cards"`       // seed
	}
	inScore struct {
		Team1 int `json:"team1"`
		Team2 int `json:"team2"`
	}
	inHandState struct {
		GameMode        string    `json:"gameMode"`
		CurrentTrick    *inTrick  `json:"currentTrick"`
		CompletedTricks []inTrick `json:"completedTricks"`
		Multiplier      string    `json:"multiplier"` // seed only
	}
	inDeal struct {
		GameMode      string `json:"gameMode"`
		Multiplier    string `json:"multiplier"`
		AnnouncerTeam string `json:"announcerTeam"`
	}
	// refMatchState is a match state in either dialect.
	refMatchState struct {
		TargetScore      int      `json:"targetScore"`
		Team1MatchPoints int      `json:"team1MatchPoints"`
		Team2MatchPoints int      `json:"team2MatchPoints"`
		CurrentDealer    string   `json:"currentDealer"`
		IsComplete       bool     `json:"isComplete"`
		CompletedDeals   []inDeal `json:"completedDeals"`
		Score            *inScore `json:"score"`  // seed
		Dealer           string   `json:"dealer"` // seed
	}
	// refAction is an offered action or a history entry in either dialect.
	refAction struct {
		Type       string     `json:"type"`
		Player     string     `json:"player"`
		Mode       string     `json:"mode"`
		TargetMode string     `json:"targetMode"`
		GameMode   string     `json:"gameMode"` // seed
		Action     *refAction `json:"action"`   // seed history: {player, action}
	}
	inNegotiation struct {
		Dealer  string      `json:"dealer"`
		Actions []refAction `json:"actions"`
	}
)

// refCutRequest is choose-cut in either dialect (the seed adds a hand).
type refCutRequest struct {
	MatchState *refMatchState `json:"matchState"`
}

// refBidRequest is choose-negotiation-action in either dialect.
type refBidRequest struct {
	Hand             []Card            `json:"hand"`
	NegotiationState *inNegotiation    `json:"negotiationState"`
	MatchState       *refMatchState    `json:"matchState"`
	ValidActions     []json.RawMessage `json:"validActions"`
}

// refCardRequest is choose-card in either dialect.
type refCardRequest struct {
	Hand       []Card            `json:"hand"`
	HandState  *inHandState      `json:"handState"`
	MatchState *refMatchState    `json:"matchState"`
	ValidPlays []json.RawMessage `json:"validPlays"`
}

// refNotification is any notification body in either dialect.
type refNotification struct {
	MatchState       *refMatchState `json:"matchState"`
	NegotiationState *inNegotiation `json:"negotiationState"`
	HandState        *inHandState   `json:"handState"`
	Player           string         `json:"player"`
	Card             *Card          `json:"card"`
}

// refCard converts a wire card; names are matched ignoring case.
func refCard(c Card) (giretra.Card, error) {
	r, ok := giretra.ParseRank(c.Rank)
	if !ok {
		return giretra.NoCard, refMalformed("unknown card rank %q", c.Rank)
	}
	s, ok := giretra.ParseSuit(c.Suit)
	if !ok {
		return giretra.NoCard, refMalformed("unknown card suit %q", c.Suit)
	}
	return giretra.NewCard(r, s), nil
}

// refSet converts a list of distinct cards.
func refSet(cs []Card, what string) (giretra.Set, error) {
	var s giretra.Set
	for _, w := range cs {
		c, err := refCard(w)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		if s.Has(c) {
			return 0, refImpossible("%s: %v appears twice", what, c)
		}
		s = s.With(c)
	}
	return s, nil
}

func refPosition(s, what string) (giretra.Position, error) {
	p, ok := giretra.ParsePosition(s)
	if !ok {
		return 0, refMalformed("%s: unknown position %q", what, s)
	}
	return p, nil
}

// Model converts a match state. Missing parts default (target 0 means
// unknown; dealer Bottom). Completed deals are kept for their count and
// contracts; unknown names in them are tolerated.
func (m *refMatchState) Model() (giretra.MatchState, error) {
	ms := giretra.NewMatchState(0, giretra.Bottom)
	if m == nil {
		return ms, nil
	}
	ms.TargetScore = m.TargetScore
	ms.Points = [2]int{m.Team1MatchPoints, m.Team2MatchPoints}
	if m.Score != nil {
		ms.Points = [2]int{m.Score.Team1, m.Score.Team2}
	}
	d := m.CurrentDealer
	if d == "" {
		d = m.Dealer
	}
	if d != "" {
		p, err := refPosition(d, "matchState dealer")
		if err != nil {
			return ms, err
		}
		ms.Dealer = p
	}
	ms.Complete = m.IsComplete
	ms.Deals = make([]giretra.DealResult, len(m.CompletedDeals))
	for i, cd := range m.CompletedDeals {
		r := &ms.Deals[i]
		r.Mode, _ = giretra.ParseMode(cd.GameMode)
		r.Multiplier, _ = giretra.ParseMultiplier(cd.Multiplier)
		r.AnnouncerTeam, _ = giretra.ParseTeam(cd.AnnouncerTeam)
		r.SweepingTeam = giretra.NoTeam
	}
	return ms, nil
}

func (t *inTrick) model(mode giretra.Mode, what string) (giretra.Trick, error) {
	cards := t.PlayedCards
	if cards == nil {
		cards = t.Cards
	}
	if len(cards) > 4 {
		return giretra.Trick{}, refMalformed("%s: %d cards in a trick", what, len(cards))
	}
	leader := t.Leader
	if leader == "" && len(cards) > 0 {
		leader = cards[0].Player
	}
	var tr giretra.Trick
	if leader == "" {
		return tr, refMalformed("%s: no leader", what)
	}
	lp, err := refPosition(leader, what+" leader")
	if err != nil {
		return tr, err
	}
	tr = giretra.NewTrick(lp)
	for i, pc := range cards {
		if pc.Card == nil {
			return tr, refMalformed("%s: card %d missing", what, i+1)
		}
		c, err := refCard(*pc.Card)
		if err != nil {
			return tr, fmt.Errorf("%s: %w", what, err)
		}
		if pc.Player != "" {
			p, err := refPosition(pc.Player, what+" player")
			if err != nil {
				return tr, err
			}
			if p != tr.Next() {
				return tr, refImpossible("%s: card %d played by %v, expected %v", what, i+1, p, tr.Next())
			}
		}
		tr.Add(c)
	}
	return tr, nil
}

// Model converts a hand state: tricks, and card points and tricks won
// recomputed from them. mul is the seed dialect's multiplier (Normal when absent).
func (h *inHandState) Model(dealer giretra.Position) (hs giretra.HandState, mul giretra.Multiplier, err error) {
	hs.Current = giretra.NewTrick(dealer.Next())
	mode, ok := giretra.ParseMode(h.GameMode)
	if !ok {
		return hs, 0, refMalformed("handState: unknown gameMode %q", h.GameMode)
	}
	mul, _ = giretra.ParseMultiplier(h.Multiplier)
	hs.Mode = mode
	if len(h.CompletedTricks) > 8 {
		return hs, mul, refMalformed("handState: %d completed tricks", len(h.CompletedTricks))
	}
	seen := giretra.Set(0)
	for i := range h.CompletedTricks {
		t, err := h.CompletedTricks[i].model(mode, fmt.Sprintf("completedTricks[%d]", i))
		if err != nil {
			return hs, mul, err
		}
		if !t.Complete() {
			return hs, mul, refImpossible("completedTricks[%d] has %d cards", i, t.N)
		}
		if seen&t.Set() != 0 {
			return hs, mul, refImpossible("completedTricks[%d] repeats a card", i)
		}
		seen |= t.Set()
		if i > 0 && t.Leader != hs.Current.Leader {
			return hs, mul, refImpossible("completedTricks[%d] led by %v, but %v won the trick before", i, t.Leader, hs.Current.Leader)
		}
		// Replaying the 4th card through Play keeps points and tricks consistent.
		last := t.Cards[3]
		t.N, t.Cards[3] = 3, giretra.NoCard
		hs.Current = t
		hs.Play(last)
	}
	if h.CurrentTrick != nil {
		t, err := h.CurrentTrick.model(mode, "currentTrick")
		if err != nil {
			return hs, mul, err
		}
		if t.Complete() {
			return hs, mul, refImpossible("currentTrick already has 4 cards")
		}
		if seen&t.Set() != 0 {
			return hs, mul, refImpossible("currentTrick repeats a played card")
		}
		if len(hs.Completed) > 0 && t.Leader != hs.Current.Leader {
			return hs, mul, refImpossible("currentTrick led by %v, but %v won the last trick", t.Leader, hs.Current.Leader)
		}
		hs.Current = t
		hs.Over = false
	}
	return hs, mul, nil
}

// Action converts an action in either dialect. The seed's "Pass" is the
// engine's Accept; the seed's gameMode stands for mode and targetMode.
func (a *refAction) Model() (giretra.Action, error) {
	x := a
	if a.Action != nil {
		x = a.Action
	}
	t, ok := giretra.ParseActionType(x.Type)
	if !ok {
		return giretra.Action{}, refMalformed("unknown action type %q", x.Type)
	}
	out := giretra.Action{Type: t, Mode: giretra.NoMode}
	if a.Player != "" {
		p, err := refPosition(a.Player, "action player")
		if err != nil {
			return out, err
		}
		out.Player = p
	}
	if t == giretra.Accept {
		return out, nil
	}
	name := x.Mode
	if t != giretra.Announce && x.TargetMode != "" {
		name = x.TargetMode
	}
	if name == "" {
		name = x.GameMode
	}
	m, ok := giretra.ParseMode(name)
	if !ok {
		return out, refMalformed("%v: unknown mode %q", t, name)
	}
	out.Mode = m
	return out, nil
}

// refDecodeBidReq converts a bid request for the player at seat.
func refDecodeBidReq(r *refBidRequest, seat giretra.Position) (*Bid, error) {
	b := &Bid{}
	var err error
	if b.Match, err = r.MatchState.Model(); err != nil {
		return nil, err
	}
	hand, err := refSet(r.Hand, "hand")
	if err != nil {
		return nil, err
	}
	b.Neg.Dealer = b.Match.Dealer
	if r.NegotiationState != nil {
		if r.NegotiationState.Dealer != "" {
			if b.Neg.Dealer, err = refPosition(r.NegotiationState.Dealer, "negotiationState dealer"); err != nil {
				return nil, err
			}
		}
		for i := range r.NegotiationState.Actions {
			a, err := r.NegotiationState.Actions[i].Model()
			if err != nil {
				return nil, fmt.Errorf("negotiationState.actions[%d]: %w", i, err)
			}
			b.Neg.Actions = append(b.Neg.Actions, a)
		}
	}
	if len(r.ValidActions) == 0 {
		return nil, refImpossible("validActions is empty: there is nothing to choose")
	}
	valid := make([]giretra.Action, 0, len(r.ValidActions))
	for i, raw := range r.ValidActions {
		var ia refAction
		if err := json.Unmarshal(raw, &ia); err != nil {
			return nil, refMalformed("validActions[%d]: %v", i, err)
		}
		a, err := ia.Model()
		if err != nil {
			return nil, fmt.Errorf("validActions[%d]: %w", i, err)
		}
		a.Player = seat
		valid = append(valid, a)
		b.Raw = append(b.Raw, raw)
	}
	b.View = giretra.BidView{Seat: seat, Hand: hand, Negotiation: &b.Neg, Match: &b.Match, Valid: valid}
	return b, nil
}

// refDecodePlayReq converts a card request for the player at seat.
func refDecodePlayReq(r *refCardRequest, seat giretra.Position) (*Play, error) {
	p := &Play{Raw: make(map[giretra.Card][]byte, len(r.ValidPlays))}
	var err error
	if p.Match, err = r.MatchState.Model(); err != nil {
		return nil, err
	}
	if r.HandState == nil {
		return nil, refMalformed("handState is required")
	}
	if p.State, p.Multiplier, err = r.HandState.Model(p.Match.Dealer); err != nil {
		return nil, err
	}
	hand, err := refSet(r.Hand, "hand")
	if err != nil {
		return nil, err
	}
	if len(r.ValidPlays) == 0 {
		return nil, refImpossible("validPlays is empty: there is nothing to play")
	}
	var valid giretra.Set
	for i, raw := range r.ValidPlays {
		var wc Card
		if err := json.Unmarshal(raw, &wc); err != nil {
			return nil, refMalformed("validPlays[%d]: %v", i, err)
		}
		c, err := refCard(wc)
		if err != nil {
			return nil, fmt.Errorf("validPlays[%d]: %w", i, err)
		}
		if _, dup := p.Raw[c]; !dup {
			p.Raw[c] = raw
		}
		valid = valid.With(c)
	}
	if p.State.Played()&hand != 0 {
		return nil, refImpossible("hand holds a card that was already played")
	}
	p.View = giretra.PlayView{Seat: seat, Hand: hand | valid, State: &p.State, Match: &p.Match, Valid: valid}
	return p, nil
}

// refDecodeNotificationReq converts a notification body of kind k.
func refDecodeNotificationReq(k giretra.EventKind, r *refNotification) (*Notification, error) {
	n := &Notification{}
	var err error
	if n.Match, err = r.MatchState.Model(); err != nil {
		return nil, err
	}
	n.Event = giretra.Event{Kind: k, Match: &n.Match}
	if k == giretra.NegotiationCompleted && r.NegotiationState != nil {
		n.Neg.Dealer = n.Match.Dealer
		if r.NegotiationState.Dealer != "" {
			if n.Neg.Dealer, err = refPosition(r.NegotiationState.Dealer, "negotiationState dealer"); err != nil {
				return nil, err
			}
		}
		for i := range r.NegotiationState.Actions {
			a, err := r.NegotiationState.Actions[i].Model()
			if err != nil {
				return nil, fmt.Errorf("negotiationState.actions[%d]: %w", i, err)
			}
			n.Neg.Actions = append(n.Neg.Actions, a)
		}
		n.Event.Negotiation = &n.Neg
	}
	if r.HandState != nil && (k == giretra.CardPlayed || k == giretra.TrickCompleted || k == giretra.DealEnded) {
		if n.Hand, _, err = r.HandState.Model(n.Match.Dealer); err != nil {
			return nil, err
		}
		n.Event.Hand = &n.Hand
	}
	if k == giretra.CardPlayed && r.Card != nil {
		if n.Event.Card, err = refCard(*r.Card); err != nil {
			return nil, err
		}
		if n.Event.Player, err = refPosition(r.Player, "player"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// refDecodeBid is the server's old path: strict JSON, the required
// fields, then the conversion.
func refDecodeBid(b []byte, seat giretra.Position) (*Bid, error) {
	var r refBidRequest
	if err := problem.Decode(b, &r); err != nil {
		return nil, err
	}
	if r.Hand == nil {
		return nil, refMalformed("invalid request: hand: is required")
	}
	if r.ValidActions == nil {
		return nil, refMalformed("invalid request: validActions: is required")
	}
	return refDecodeBidReq(&r, seat)
}

func refDecodePlay(b []byte, seat giretra.Position) (*Play, error) {
	var r refCardRequest
	if err := problem.Decode(b, &r); err != nil {
		return nil, err
	}
	if r.Hand == nil || r.HandState == nil || r.ValidPlays == nil {
		return nil, refMalformed("invalid request: a required field is missing")
	}
	return refDecodePlayReq(&r, seat)
}

func refDecodeNotification(k giretra.EventKind, b []byte) (*Notification, error) {
	var r refNotification
	if err := problem.Decode(b, &r); err != nil {
		return nil, err
	}
	return refDecodeNotificationReq(k, &r)
}

func refDecodeCut(b []byte) (giretra.MatchState, error) {
	var r refCutRequest
	if err := problem.Decode(b, &r); err != nil {
		return giretra.MatchState{}, err
	}
	return r.MatchState.Model()
}
