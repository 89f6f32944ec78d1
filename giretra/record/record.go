// Package record is the Giretra referee's game record: one JSON Lines file
// per match, written while the match is played and read back by the
// replay (giretra-ref show) and the HTML report.
//
// A file is a sequence of lines, each a JSON object with a "type":
//
//	match      the header: command, match number, seed, target, seats
//	deal       a deal starts: number, dealer, score before it
//	cut        the cut applied and the four hands it dealt (dealt order:
//	           the first five cards of a hand were dealt before the bidding)
//	bid        one negotiation action
//	contract   the negotiation's outcome
//	trick      a completed trick: leader, the four cards, winner, points
//	result     the deal's score and the match score after it
//	call       one HTTP exchange with a bot server: the request body sent,
//	           the answer as the referee read it (or the error), the latency
//	violation  a rule or time-limit breach, with the line of its call
//	end        the match's outcome, or the error that stopped it (and the
//	           line of the call that failed)
//
// Cards are two characters, rank then suit: 7 8 9 T J Q K A and C D H S
// ("JH" is the Jack of Hearts). Seats, modes, multipliers and teams are
// the engine's names (Bottom, ColourHearts, Doubled, Team1). Lines are
// numbered from 1; "line" fields refer to those numbers.
package record

import (
	"fmt"

	"github.com/botarena/gamebot/giretra"
)

// Version is the format's version, in every header.
const Version = 1

// Line types.
const (
	TypeMatch     = "match"
	TypeDeal      = "deal"
	TypeCut       = "cut"
	TypeBid       = "bid"
	TypeContract  = "contract"
	TypeTrick     = "trick"
	TypeResult    = "result"
	TypeCall      = "call"
	TypeViolation = "violation"
	TypeEnd       = "end"
)

// enumText writes the n-valued enum v by its engine name.
func enumText[T ~uint8](v T, n int, name func(T) string, what string) ([]byte, error) {
	if int(v) >= n {
		return nil, fmt.Errorf("record: %s %d out of range", what, uint8(v))
	}
	return []byte(name(v)), nil
}

// parseEnum reads an enum written by enumText: exactly the engine's name
// (a record is written by this package, not by hand).
func parseEnum[T ~uint8](b []byte, n int, name func(T) string, what string) (T, error) {
	for v := range n {
		if string(b) == name(T(v)) {
			return T(v), nil
		}
	}
	return 0, fmt.Errorf("bad %s %q", what, b)
}

// Seat is a seat written by name (Bottom, Left, Top, Right).
type Seat giretra.Position

func seatName(s Seat) string { return giretra.Position(s).String() }

func (s Seat) MarshalText() ([]byte, error) { return enumText(s, 4, seatName, "seat") }

func (s *Seat) UnmarshalText(b []byte) (err error) {
	*s, err = parseEnum(b, 4, seatName, "seat")
	return err
}

// Mode is a game mode written by name (ColourClubs … AllTrumps).
type Mode giretra.Mode

func modeName(m Mode) string { return giretra.Mode(m).String() }

func (m Mode) MarshalText() ([]byte, error) { return enumText(m, 6, modeName, "mode") }

func (m *Mode) UnmarshalText(b []byte) (err error) {
	*m, err = parseEnum(b, 6, modeName, "mode")
	return err
}

// Multiplier is Normal, Doubled or Redoubled.
type Multiplier giretra.Multiplier

func multiplierName(m Multiplier) string { return giretra.Multiplier(m).String() }

func (m Multiplier) MarshalText() ([]byte, error) {
	return enumText(m, 3, multiplierName, "multiplier")
}

func (m *Multiplier) UnmarshalText(b []byte) (err error) {
	*m, err = parseEnum(b, 3, multiplierName, "multiplier")
	return err
}

// Team is Team1 or Team2.
type Team giretra.Team

func teamName(t Team) string { return giretra.Team(t).String() }

func (t Team) MarshalText() ([]byte, error) { return enumText(t, 2, teamName, "team") }

func (t *Team) UnmarshalText(b []byte) (err error) {
	*t, err = parseEnum(b, 2, teamName, "team")
	return err
}

// ActionType is a negotiation action's type (Announcement, Accept, Double,
// Redouble).
type ActionType giretra.ActionType

func actionName(a ActionType) string { return giretra.ActionType(a).String() }

func (a ActionType) MarshalText() ([]byte, error) { return enumText(a, 4, actionName, "action type") }

func (a *ActionType) UnmarshalText(b []byte) (err error) {
	*a, err = parseEnum(b, 4, actionName, "action type")
	return err
}

// Header is the first line of a record.
type Header struct {
	Type    string `json:"type"` // "match"
	Version int    `json:"version"`
	// Command is the giretra-ref command that played the match: validate,
	// benchmark, swiss or compare; strength for giretra-strength's.
	Command string `json:"command"`
	// Match is the match's number in its run, from 1.
	Match int `json:"match"`
	// Round is the Swiss round, from 1 (swiss only).
	Round int `json:"round,omitempty"`
	// Deals is the deal sequence (from 1) the match shares with other
	// matches of a duplicate run: same decks, same cuts.
	Deals int `json:"dealSequence,omitempty"`
	// Seed is the run's seed.
	Seed int64 `json:"seed"`
	// SeedWithheld: the record of a match still in play at a table, whose
	// seed (it deals every hand) is not shown until the match is over;
	// Seed is 0.
	SeedWithheld bool      `json:"seedWithheld,omitempty"`
	Target       int       `json:"targetScore"`
	Sweep        int       `json:"colourSweepPoints"` // 0: a Colour sweep wins the match
	FirstDealer  Seat      `json:"firstDealer"`
	Players      [4]string `json:"players"` // by seat: Bottom, Left, Top, Right
	// HTTP marks the seats played by a bot server (their calls are recorded).
	HTTP [4]bool `json:"http"`
	// Subject is the player the run is about (the validated bot, a
	// benchmark's first bot, a compare version); SubjectTeam its team.
	Subject     string `json:"subject"`
	SubjectTeam Team   `json:"subjectTeam"`
}

// TeamName is the name of a team's players: one name, or "a + b" for a
// mixed team.
func (h *Header) TeamName(t giretra.Team) string {
	a, b := h.Players[t], h.Players[t+2]
	if a == b {
		return a
	}
	return a + " + " + b
}

// DealLine starts a deal.
type DealLine struct {
	Type   string `json:"type"`
	Deal   int    `json:"deal"`
	Dealer Seat   `json:"dealer"`
	Score  [2]int `json:"score"` // match points before the deal, Team1, Team2
	Target int    `json:"targetScore"`
}

// CutLine is the cut the deal used and the hands it dealt.
type CutLine struct {
	Type     string `json:"type"`
	Deal     int    `json:"deal"`
	Seat     Seat   `json:"seat"`
	Position int    `json:"position"`
	FromTop  bool   `json:"fromTop"`
	// Asked is the cutter's own answer when the referee replaced it
	// (duplicate runs fix the cuts so that every table gets the same hands).
	Asked *Cut `json:"asked,omitempty"`
	// Hands by seat, in the order dealt: five before the bidding, three after.
	Hands [4][]giretra.Card `json:"hands"`
}

// Cut is a cutter's answer.
type Cut struct {
	Position int  `json:"position"`
	FromTop  bool `json:"fromTop"`
}

// BidLine is one negotiation action.
type BidLine struct {
	Type   string     `json:"type"`
	Deal   int        `json:"deal"`
	Seat   Seat       `json:"seat"`
	Action ActionType `json:"action"`
	Mode   *Mode      `json:"mode,omitempty"` // announced, doubled or redoubled mode
}

// ContractLine is the negotiation's outcome.
type ContractLine struct {
	Type       string     `json:"type"`
	Deal       int        `json:"deal"`
	Mode       Mode       `json:"mode"`
	Multiplier Multiplier `json:"multiplier"`
	Announcer  Seat       `json:"announcer"`
}

// TrickLine is a completed trick.
type TrickLine struct {
	Type   string         `json:"type"`
	Deal   int            `json:"deal"`
	Trick  int            `json:"trick"` // 1..8
	Leader Seat           `json:"leader"`
	Cards  []giretra.Card `json:"cards"` // in play order, from the leader
	Winner Seat           `json:"winner"`
	Points int            `json:"points"` // card points, last-trick bonus included
}

// ResultLine is a scored deal.
type ResultLine struct {
	Type          string     `json:"type"`
	Deal          int        `json:"deal"`
	Mode          Mode       `json:"mode"`
	Multiplier    Multiplier `json:"multiplier"`
	AnnouncerTeam Team       `json:"announcerTeam"`
	CardPoints    [2]int     `json:"cardPoints"`
	MatchPoints   [2]int     `json:"matchPoints"`
	Sweep         *Team      `json:"sweepingTeam,omitempty"`
	SweepBonus    int        `json:"sweepBonus,omitempty"`
	InstantWin    bool       `json:"instantWin,omitempty"`
	Score         [2]int     `json:"score"` // match points after the deal
}

// Made reports whether the announcer's team won the deal: more match
// points than the defenders, or the match outright (the engine's
// DealResult.AnnouncerWon).
func (r *ResultLine) Made() bool {
	return r.Margin(r.AnnouncerTeam) > 0 || r.InstantWin && r.Sweep != nil && *r.Sweep == r.AnnouncerTeam
}

// Margin is team t's match points minus the other team's in the deal, a
// Colour sweep's bonus included.
func (r *ResultLine) Margin(t Team) int {
	a, d := r.MatchPoints[t], r.MatchPoints[1-t]
	if r.Sweep != nil && r.SweepBonus > 0 {
		if *r.Sweep == t {
			a += r.SweepBonus
		} else {
			d += r.SweepBonus
		}
	}
	return a - d
}

// Decision kinds of calls, in the engine's DecisionType order.
const (
	KindCut          = "Cut"
	KindNegotiation  = "Negotiation"
	KindCardPlay     = "CardPlay"
	KindNotification = "Notification"
)

// Kinds lists the call kinds.
func Kinds() []string { return []string{KindCut, KindNegotiation, KindCardPlay, KindNotification} }

// CallLine is one HTTP exchange with a bot server. Decisions carry the
// request body exactly as sent; notifications only their endpoint (their
// bodies repeat the game state the other lines hold).
type CallLine struct {
	Type     string  `json:"type"`
	Deal     int     `json:"deal"`
	Seat     Seat    `json:"seat"`
	Kind     string  `json:"kind"`
	Endpoint string  `json:"endpoint"` // choose-card, notify/deal-started, …
	Request  RawJSON `json:"request,omitempty"`
	Answer   RawJSON `json:"answer,omitempty"` // as the referee read it
	Error    string  `json:"error,omitempty"`
	MS       float64 `json:"ms"` // latency in milliseconds
}

// RawJSON is a JSON value kept as written.
type RawJSON []byte

func (r RawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

func (r *RawJSON) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// ViolationLine is a rule or time-limit breach by a seat.
type ViolationLine struct {
	Type   string `json:"type"`
	Deal   int    `json:"deal"`
	Seat   Seat   `json:"seat"`
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Line   int    `json:"line,omitempty"` // the call's line, when there is one
}

// EndLine closes a record.
type EndLine struct {
	Type   string `json:"type"`
	Winner *Team  `json:"winner,omitempty"`
	Score  [2]int `json:"score"`
	Deals  int    `json:"deals"` // deals completed
	// Error is what stopped the match early: a crash, an illegal answer,
	// an interrupt.
	Error       string `json:"error,omitempty"`
	ErrorSeat   *Seat  `json:"errorSeat,omitempty"`
	Line        int    `json:"line,omitempty"` // the failing call's line
	Interrupted bool   `json:"interrupted,omitempty"`
}
