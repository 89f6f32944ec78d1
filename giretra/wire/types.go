// Package wire holds the JSON shapes of the Giretra bot protocol and their
// conversion to and from the giretra model. Two dialects exist: the engine's
// (what RemoteBotClient.cs really sends) and the older shapes of the seed
// document (build-your-bot-custom.md). Decoding accepts both; encoding
// writes either (the referee's --dialect switch). No HTTP here.
package wire

// Card is {"rank":"Ace","suit":"Hearts"}.
type Card struct {
	Rank string `json:"rank"`
	Suit string `json:"suit"`
}

// PlayedCard is one card of a trick, engine shape.
type PlayedCard struct {
	Player string `json:"player"`
	Card   Card   `json:"card"`
}

// Trick is the engine's trick shape.
type Trick struct {
	Leader      string       `json:"leader"`
	TrickNumber int          `json:"trickNumber"`
	PlayedCards []PlayedCard `json:"playedCards"`
	IsComplete  bool         `json:"isComplete"`
}

// HandState is the engine's hand state.
type HandState struct {
	GameMode        string  `json:"gameMode"`
	Team1CardPoints int     `json:"team1CardPoints"`
	Team2CardPoints int     `json:"team2CardPoints"`
	Team1TricksWon  int     `json:"team1TricksWon"`
	Team2TricksWon  int     `json:"team2TricksWon"`
	CurrentTrick    *Trick  `json:"currentTrick,omitempty"`
	CompletedTricks []Trick `json:"completedTricks"`
}

// DealResult is the engine's deal result.
type DealResult struct {
	GameMode         string  `json:"gameMode"`
	Multiplier       string  `json:"multiplier"`
	AnnouncerTeam    string  `json:"announcerTeam"`
	Team1CardPoints  int     `json:"team1CardPoints"`
	Team2CardPoints  int     `json:"team2CardPoints"`
	Team1MatchPoints int     `json:"team1MatchPoints"`
	Team2MatchPoints int     `json:"team2MatchPoints"`
	WasSweep         bool    `json:"wasSweep"`
	SweepingTeam     *string `json:"sweepingTeam,omitempty"`
	IsInstantWin     bool    `json:"isInstantWin"`
}

// MatchState is the engine's match state.
type MatchState struct {
	TargetScore      int          `json:"targetScore"`
	Team1MatchPoints int          `json:"team1MatchPoints"`
	Team2MatchPoints int          `json:"team2MatchPoints"`
	CurrentDealer    string       `json:"currentDealer"`
	IsComplete       bool         `json:"isComplete"`
	Winner           *string      `json:"winner,omitempty"`
	CompletedDeals   []DealResult `json:"completedDeals"`
}

// HistoryAction is one entry of the engine's negotiation history.
type HistoryAction struct {
	Type       string `json:"type"`
	Player     string `json:"player"`
	Mode       string `json:"mode,omitempty"`
	TargetMode string `json:"targetMode,omitempty"`
}

// NegotiationState is the engine's negotiation state.
type NegotiationState struct {
	Dealer                  string            `json:"dealer"`
	CurrentPlayer           string            `json:"currentPlayer"`
	CurrentBid              *string           `json:"currentBid,omitempty"`
	CurrentBidder           *string           `json:"currentBidder,omitempty"`
	ConsecutiveAccepts      int               `json:"consecutiveAccepts"`
	HasDoubleOccurred       bool              `json:"hasDoubleOccurred"`
	Actions                 []HistoryAction   `json:"actions"`
	DoubledModes            map[string]int    `json:"doubledModes"`
	RedoubledModes          []string          `json:"redoubledModes"`
	TeamColourAnnouncements map[string]string `json:"teamColourAnnouncements"`
}

// ValidAction is an offered action, engine shape (no player).
type ValidAction struct {
	Type       string `json:"type"`
	Mode       string `json:"mode,omitempty"`
	TargetMode string `json:"targetMode,omitempty"`
}

// CreateSession is the body of POST /api/sessions.
type CreateSession struct {
	Position string `json:"position,omitempty"`
	MatchID  string `json:"matchId"`
	Seed     *int64 `json:"seed,omitempty"`
}

// SessionCreated is the answer to POST /api/sessions.
type SessionCreated struct {
	SessionID string `json:"sessionId"`
}

// CutRequest is the engine's choose-cut body.
type CutRequest struct {
	DeckSize   int        `json:"deckSize"`
	MatchState MatchState `json:"matchState"`
}

// CutAnswer is the answer to choose-cut.
type CutAnswer struct {
	Position int  `json:"position"`
	FromTop  bool `json:"fromTop"`
}

// BidRequest is the engine's choose-negotiation-action body.
type BidRequest struct {
	Hand             []Card           `json:"hand"`
	NegotiationState NegotiationState `json:"negotiationState"`
	MatchState       MatchState       `json:"matchState"`
	ValidActions     []ValidAction    `json:"validActions"`
}

// CardRequest is the engine's choose-card body.
type CardRequest struct {
	Hand       []Card     `json:"hand"`
	HandState  HandState  `json:"handState"`
	MatchState MatchState `json:"matchState"`
	ValidPlays []Card     `json:"validPlays"`
}

// Notification bodies, engine shapes.
type (
	DealStartedBody struct {
		MatchState MatchState `json:"matchState"`
	}
	NegotiationCompletedBody struct {
		NegotiationState NegotiationState `json:"negotiationState"`
		MatchState       MatchState       `json:"matchState"`
	}
	CardPlayedBody struct {
		Player     string     `json:"player"`
		Card       Card       `json:"card"`
		HandState  HandState  `json:"handState"`
		MatchState MatchState `json:"matchState"`
	}
	TrickCompletedBody struct {
		CompletedTrick Trick      `json:"completedTrick"`
		Winner         string     `json:"winner"`
		HandState      HandState  `json:"handState"`
		MatchState     MatchState `json:"matchState"`
	}
	DealEndedBody struct {
		Result     DealResult `json:"result"`
		HandState  HandState  `json:"handState"`
		MatchState MatchState `json:"matchState"`
	}
	MatchEndedBody struct {
		MatchState MatchState `json:"matchState"`
	}
)
