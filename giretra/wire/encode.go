package wire

import "github.com/botarena/gamebot/giretra"

// Dialect selects the JSON shapes the referee writes.
type Dialect uint8

const (
	// Engine is what the real Giretra engine sends.
	Engine Dialect = iota
	// Seed is the older shapes of the seed document.
	Seed
)

// FromCard converts a card.
func FromCard(c giretra.Card) Card { return Card{Rank: c.Rank().String(), Suit: c.Suit().String()} }

// FromSet converts a set of cards, in ascending card order.
func FromSet(s giretra.Set) []Card {
	out := make([]Card, 0, s.Count())
	for c := range s.All() {
		out = append(out, FromCard(c))
	}
	return out
}

func strp(s string) *string { return &s }

// FromTrick converts a trick; number is 1-based.
func FromTrick(t *giretra.Trick, number int) Trick {
	w := Trick{Leader: t.Leader.String(), TrickNumber: number, PlayedCards: make([]PlayedCard, 0, t.N), IsComplete: t.Complete()}
	for i := range int(t.N) {
		w.PlayedCards = append(w.PlayedCards, PlayedCard{Player: t.PlayerAt(i).String(), Card: FromCard(t.Cards[i])})
	}
	return w
}

// FromHandState converts a hand state; the current trick is omitted after
// the 8th trick, as the engine does.
func FromHandState(h *giretra.HandState) HandState {
	w := HandState{
		GameMode:        h.Mode.String(),
		Team1CardPoints: h.CardPoints[0], Team2CardPoints: h.CardPoints[1],
		Team1TricksWon: h.TricksWon[0], Team2TricksWon: h.TricksWon[1],
		CompletedTricks: make([]Trick, 0, len(h.Completed)),
	}
	for i := range h.Completed {
		w.CompletedTricks = append(w.CompletedTricks, FromTrick(&h.Completed[i], i+1))
	}
	if !h.Over {
		t := FromTrick(&h.Current, len(h.Completed)+1)
		w.CurrentTrick = &t
	}
	return w
}

// FromDealResult converts a deal result.
func FromDealResult(r *giretra.DealResult) DealResult {
	w := DealResult{
		GameMode: r.Mode.String(), Multiplier: r.Multiplier.String(), AnnouncerTeam: r.AnnouncerTeam.String(),
		Team1CardPoints: r.CardPoints[0], Team2CardPoints: r.CardPoints[1],
		Team1MatchPoints: r.MatchPoints[0], Team2MatchPoints: r.MatchPoints[1],
		WasSweep: r.WasSweep, IsInstantWin: r.IsInstantWin,
	}
	if r.WasSweep {
		w.SweepingTeam = strp(r.SweepingTeam.String())
	}
	return w
}

// FromMatchState converts a match state.
func FromMatchState(m *giretra.MatchState) MatchState {
	w := MatchState{
		TargetScore: m.TargetScore, Team1MatchPoints: m.Points[0], Team2MatchPoints: m.Points[1],
		CurrentDealer: m.Dealer.String(), IsComplete: m.Complete,
		CompletedDeals: make([]DealResult, 0, len(m.Deals)),
	}
	if m.Complete && m.Winner != giretra.NoTeam {
		w.Winner = strp(m.Winner.String())
	}
	for i := range m.Deals {
		w.CompletedDeals = append(w.CompletedDeals, FromDealResult(&m.Deals[i]))
	}
	return w
}

// FromAction converts a history entry.
func FromAction(a giretra.Action) HistoryAction {
	h := HistoryAction{Type: a.Type.String(), Player: a.Player.String()}
	switch a.Type {
	case giretra.Announce:
		h.Mode = a.Mode.String()
	case giretra.Double, giretra.Redouble:
		h.TargetMode = a.Mode.String()
	}
	return h
}

// FromValidAction converts an offered action (no player).
func FromValidAction(a giretra.Action) ValidAction {
	h := FromAction(a)
	return ValidAction{Type: h.Type, Mode: h.Mode, TargetMode: h.TargetMode}
}

// FromNegotiation converts a negotiation to the engine's full state
// (replayed from the history). The history must be legal.
func FromNegotiation(n *giretra.Negotiation) NegotiationState {
	b, _ := n.State()
	w := NegotiationState{
		Dealer: n.Dealer.String(), CurrentPlayer: b.CurrentPlayer.String(),
		ConsecutiveAccepts: b.ConsecutiveAccepts, HasDoubleOccurred: b.Locked,
		Actions:                 make([]HistoryAction, 0, len(n.Actions)),
		DoubledModes:            map[string]int{},
		RedoubledModes:          []string{},
		TeamColourAnnouncements: map[string]string{},
	}
	if b.Complete() && len(n.Actions) > 0 {
		// The engine reports the last accepter as current player once complete.
		w.CurrentPlayer = n.Actions[len(n.Actions)-1].Player.String()
	}
	if b.CurrentBid != giretra.NoMode {
		w.CurrentBid = strp(b.CurrentBid.String())
		w.CurrentBidder = strp(b.CurrentBidder.String())
	}
	for _, a := range n.Actions {
		w.Actions = append(w.Actions, FromAction(a))
	}
	for m := giretra.Mode(0); m <= giretra.AllTrumps; m++ {
		if b.DoubleIndex[m] >= 0 {
			w.DoubledModes[m.String()] = b.DoubleIndex[m]
		}
		if b.Redoubled[m] {
			w.RedoubledModes = append(w.RedoubledModes, m.String())
		}
	}
	for t, m := range b.TeamColour {
		if m != giretra.NoMode {
			w.TeamColourAnnouncements[giretra.Team(t).String()] = m.String()
		}
	}
	return w
}

// Seed-document shapes, for the referee's --dialect seed.
type (
	seedScore struct {
		Team1 int `json:"team1"`
		Team2 int `json:"team2"`
	}
	seedMatchState struct {
		Score       seedScore `json:"score"`
		Dealer      string    `json:"dealer"`
		TargetScore int       `json:"targetScore"`
	}
	seedPlayed struct {
		Card   Card   `json:"card"`
		Player string `json:"player"`
	}
	seedTrick struct {
		Leader string       `json:"leader"`
		Cards  []seedPlayed `json:"cards"`
	}
	seedHandState struct {
		GameMode        string      `json:"gameMode"`
		CurrentTrick    *seedTrick  `json:"currentTrick,omitempty"`
		CompletedTricks []seedTrick `json:"completedTricks"`
		Scores          seedScore   `json:"scores"`
		Multiplier      string      `json:"multiplier"`
	}
	seedAction struct {
		Type     string `json:"type"`
		GameMode string `json:"gameMode,omitempty"`
	}
	seedHistory struct {
		Player string     `json:"player"`
		Action seedAction `json:"action"`
	}
	seedNegotiation struct {
		Actions []seedHistory `json:"actions"`
	}
)

func seedMatch(m *giretra.MatchState) seedMatchState {
	return seedMatchState{Score: seedScore{m.Points[0], m.Points[1]}, Dealer: m.Dealer.String(), TargetScore: m.TargetScore}
}

func seedTrickOf(t *giretra.Trick) seedTrick {
	s := seedTrick{Leader: t.Leader.String(), Cards: make([]seedPlayed, 0, t.N)}
	for i := range int(t.N) {
		s.Cards = append(s.Cards, seedPlayed{Card: FromCard(t.Cards[i]), Player: t.PlayerAt(i).String()})
	}
	return s
}

func seedHand(h *giretra.HandState, mul giretra.Multiplier) seedHandState {
	s := seedHandState{GameMode: h.Mode.String(), Scores: seedScore{h.CardPoints[0], h.CardPoints[1]}, CompletedTricks: make([]seedTrick, 0, len(h.Completed))}
	if mul == giretra.Normal {
		s.Multiplier = "None"
	} else {
		s.Multiplier = mul.String()
	}
	for i := range h.Completed {
		s.CompletedTricks = append(s.CompletedTricks, seedTrickOf(&h.Completed[i]))
	}
	if !h.Over {
		t := seedTrickOf(&h.Current)
		s.CurrentTrick = &t
	}
	return s
}

func seedActionOf(a giretra.Action) seedAction {
	switch a.Type {
	case giretra.Announce:
		return seedAction{Type: "Announce", GameMode: a.Mode.String()}
	case giretra.Accept:
		return seedAction{Type: "Accept"}
	}
	return seedAction{Type: a.Type.String(), GameMode: a.Mode.String()}
}

// EncodeCut builds the choose-cut body.
func EncodeCut(d Dialect, m *giretra.MatchState) any {
	if d == Seed {
		return struct {
			Hand       []Card         `json:"hand"`
			MatchState seedMatchState `json:"matchState"`
		}{Hand: []Card{}, MatchState: seedMatch(m)}
	}
	return CutRequest{DeckSize: 32, MatchState: FromMatchState(m)}
}

// EncodeBid builds the choose-negotiation-action body. In the seed dialect
// an offered Accept is followed by the seed's "Pass" (same meaning).
func EncodeBid(d Dialect, v *giretra.BidView) any {
	if d == Seed {
		valid := make([]seedAction, 0, len(v.Valid)+1)
		for _, a := range v.Valid {
			valid = append(valid, seedActionOf(a))
			if a.Type == giretra.Accept {
				valid = append(valid, seedAction{Type: "Pass"})
			}
		}
		hist := seedNegotiation{Actions: make([]seedHistory, 0, len(v.Negotiation.Actions))}
		for _, a := range v.Negotiation.Actions {
			hist.Actions = append(hist.Actions, seedHistory{Player: a.Player.String(), Action: seedActionOf(a)})
		}
		return struct {
			Hand             []Card          `json:"hand"`
			ValidActions     []seedAction    `json:"validActions"`
			NegotiationState seedNegotiation `json:"negotiationState"`
			MatchState       seedMatchState  `json:"matchState"`
		}{FromSet(v.Hand), valid, hist, seedMatch(v.Match)}
	}
	valid := make([]ValidAction, 0, len(v.Valid))
	for _, a := range v.Valid {
		valid = append(valid, FromValidAction(a))
	}
	return BidRequest{Hand: FromSet(v.Hand), NegotiationState: FromNegotiation(v.Negotiation), MatchState: FromMatchState(v.Match), ValidActions: valid}
}

// EncodeCard builds the choose-card body. The seed dialect carries the
// contract's multiplier, which the engine's does not.
func EncodeCard(d Dialect, v *giretra.PlayView, mul giretra.Multiplier) any {
	if d == Seed {
		return struct {
			Hand       []Card         `json:"hand"`
			ValidPlays []Card         `json:"validPlays"`
			HandState  seedHandState  `json:"handState"`
			MatchState seedMatchState `json:"matchState"`
		}{FromSet(v.Hand), FromSet(v.Valid), seedHand(v.State, mul), seedMatch(v.Match)}
	}
	return CardRequest{Hand: FromSet(v.Hand), HandState: FromHandState(v.State), MatchState: FromMatchState(v.Match), ValidPlays: FromSet(v.Valid)}
}

// EncodeEvent builds a notification body. The seed document gives no
// bodies; its dialect reuses the engine's keys with the seed's state shapes.
func EncodeEvent(d Dialect, e *giretra.Event, mul giretra.Multiplier) any {
	if d == Seed {
		body := map[string]any{"matchState": seedMatch(e.Match)}
		if e.Hand != nil {
			body["handState"] = seedHand(e.Hand, mul)
		}
		switch e.Kind {
		case giretra.CardPlayed:
			body["player"], body["card"] = e.Player.String(), FromCard(e.Card)
		case giretra.TrickCompleted:
			body["completedTrick"], body["winner"] = seedTrickOf(e.Trick), e.Winner.String()
		case giretra.DealEnded:
			body["result"] = FromDealResult(e.Result)
		case giretra.NegotiationCompleted:
			hist := seedNegotiation{Actions: make([]seedHistory, 0, len(e.Negotiation.Actions))}
			for _, a := range e.Negotiation.Actions {
				hist.Actions = append(hist.Actions, seedHistory{Player: a.Player.String(), Action: seedActionOf(a)})
			}
			body["negotiationState"] = hist
		}
		return body
	}
	ms := FromMatchState(e.Match)
	switch e.Kind {
	case giretra.DealStarted:
		return DealStartedBody{MatchState: ms}
	case giretra.NegotiationCompleted:
		return NegotiationCompletedBody{NegotiationState: FromNegotiation(e.Negotiation), MatchState: ms}
	case giretra.CardPlayed:
		return CardPlayedBody{Player: e.Player.String(), Card: FromCard(e.Card), HandState: FromHandState(e.Hand), MatchState: ms}
	case giretra.TrickCompleted:
		return TrickCompletedBody{CompletedTrick: FromTrick(e.Trick, len(e.Hand.Completed)), Winner: e.Winner.String(), HandState: FromHandState(e.Hand), MatchState: ms}
	case giretra.DealEnded:
		return DealEndedBody{Result: FromDealResult(e.Result), HandState: FromHandState(e.Hand), MatchState: ms}
	}
	return MatchEndedBody{MatchState: ms}
}
