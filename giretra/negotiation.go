package giretra

import (
	"fmt"
	"strings"
)

// ActionType is the kind of a negotiation action.
type ActionType uint8

const (
	Announce ActionType = iota
	Accept
	Double
	Redouble
)

var actionNames = [4]string{"Announcement", "Accept", "Double", "Redouble"}

func (a ActionType) String() string {
	if a < 4 {
		return actionNames[a]
	}
	return fmt.Sprintf("ActionType(%d)", uint8(a))
}

// ParseActionType parses the engine's names and the seed document's
// ("Announce"; "Pass" is the seed's word for Accept).
func ParseActionType(s string) (ActionType, bool) {
	switch strings.ToLower(s) {
	case "announcement", "announce":
		return Announce, true
	case "accept", "pass":
		return Accept, true
	case "double":
		return Double, true
	case "redouble":
		return Redouble, true
	}
	return 0, false
}

// Action is one negotiation action. Mode is the announced mode, or the
// target of a Double/Redouble; NoMode for Accept.
type Action struct {
	Type   ActionType
	Player Position
	Mode   Mode
}

func (a Action) String() string {
	if a.Type == Accept {
		return a.Player.String() + " Accept"
	}
	return a.Player.String() + " " + a.Type.String() + " " + a.Mode.String()
}

// SameChoice reports whether a and b are the same option, ignoring the player.
func (a Action) SameChoice(b Action) bool {
	return a.Type == b.Type && (a.Type == Accept || a.Mode == b.Mode)
}

// Offered is the option of valid that a stands for (the same choice,
// whoever the player), and whether valid holds one.
func Offered(a Action, valid []Action) (Action, bool) {
	for _, v := range valid {
		if v.SameChoice(a) {
			return v, true
		}
	}
	return Action{}, false
}

// Negotiation is a deal's bidding: the dealer and the history. Everything
// else (current bid, locks, doubles) is derived by replaying it.
type Negotiation struct {
	Dealer  Position
	Actions []Action
}

// Bidding is the derived state of a negotiation.
type Bidding struct {
	Dealer             Position
	CurrentPlayer      Position
	CurrentBid         Mode // NoMode before the first announcement
	CurrentBidder      Position
	ConsecutiveAccepts int
	// Locked is the engine's hasDoubleOccurred: set by a Double or by an
	// opponent accepting NoTrumps/ColourClubs. No more announcements.
	Locked bool
	// AnnouncedBy[m] is the seat that announced m, AnnounceIndex[m] its
	// index in the history (-1 when m was not announced).
	AnnouncedBy   [6]Position
	AnnounceIndex [6]int
	// DoubleIndex[m] is the history index of the Double of m, or -1.
	DoubleIndex [6]int
	Redoubled   [6]bool
	// TeamColour[t] is the Colour mode team t announced, or NoMode.
	TeamColour [2]Mode
	// accepted[p]: p accepted since the last announcement.
	accepted [4]bool
	// firstAct[p] is the index of p's first Announce/Accept, or -1.
	firstAct [4]int
}

// Accepted reports whether p accepted since the last announcement (p may
// then announce no more).
func (b *Bidding) Accepted(p Position) bool { return b.accepted[p&3] }

// Complete reports whether the negotiation is over (3 consecutive Accepts).
func (b *Bidding) Complete() bool { return b.ConsecutiveAccepts >= 3 }

// NewBidding is the state before any action.
func NewBidding(dealer Position) Bidding {
	b := Bidding{Dealer: dealer, CurrentPlayer: dealer.Next(), CurrentBid: NoMode, TeamColour: [2]Mode{NoMode, NoMode}}
	for i := range b.AnnounceIndex {
		b.AnnounceIndex[i] = -1
		b.DoubleIndex[i] = -1
	}
	b.firstAct = [4]int{-1, -1, -1, -1}
	return b
}

// State replays the history. It fails on an illegal or out-of-turn action.
func (n *Negotiation) State() (Bidding, error) {
	b := NewBidding(n.Dealer)
	for i, a := range n.Actions {
		if err := b.Apply(i, a); err != nil {
			return b, fmt.Errorf("action %d (%v): %w", i, a, err)
		}
	}
	return b, nil
}

// ValidActions lists the options of the current player, in the engine's
// order: announcements (ascending), Accept, Doubles (history order),
// Redoubles (ascending). history is the actions so far.
func (b *Bidding) ValidActions(history []Action) []Action {
	if b.Complete() {
		return nil
	}
	p := b.CurrentPlayer
	team := p.Team()
	var out []Action
	if !b.Locked && !b.accepted[p] {
		start := Mode(0)
		if b.CurrentBid != NoMode {
			start = b.CurrentBid + 1
		}
		for m := start; m <= AllTrumps; m++ {
			if m.IsColour() && b.TeamColour[team] != NoMode {
				continue
			}
			out = append(out, Action{Type: Announce, Player: p, Mode: m})
		}
	}
	if b.CurrentBid != NoMode {
		out = append(out, Action{Type: Accept, Player: p, Mode: NoMode})
	}
	for i, a := range history {
		if a.Type != Announce || a.Player.Team() == team || b.DoubleIndex[a.Mode] >= 0 {
			continue
		}
		if b.firstAct[p] >= 0 && i < b.firstAct[p] {
			continue
		}
		out = append(out, Action{Type: Double, Player: p, Mode: a.Mode})
	}
	for m := Mode(0); m <= AllTrumps; m++ {
		if m == NoTrumps || b.DoubleIndex[m] < 0 || b.Redoubled[m] || b.AnnouncedBy[m].Team() != team {
			continue
		}
		out = append(out, Action{Type: Redouble, Player: p, Mode: m})
	}
	return out
}

// Apply plays action a (the i-th of the history) for the current player.
func (b *Bidding) Apply(i int, a Action) error {
	if b.Complete() {
		return fmt.Errorf("negotiation is over")
	}
	p := b.CurrentPlayer
	if a.Player != p {
		return fmt.Errorf("not %v's turn (expected %v)", a.Player, p)
	}
	team := p.Team()
	switch a.Type {
	case Announce:
		if a.Mode > AllTrumps || b.Locked || b.accepted[p] ||
			(b.CurrentBid != NoMode && a.Mode <= b.CurrentBid) ||
			(a.Mode.IsColour() && b.TeamColour[team] != NoMode) {
			return fmt.Errorf("announcement not allowed")
		}
		b.CurrentBid, b.CurrentBidder = a.Mode, p
		b.AnnouncedBy[a.Mode], b.AnnounceIndex[a.Mode] = p, i
		if a.Mode.IsColour() {
			b.TeamColour[team] = a.Mode
		}
		b.accepted = [4]bool{}
		b.ConsecutiveAccepts = 0
		if b.firstAct[p] < 0 {
			b.firstAct[p] = i
		}
	case Accept:
		if b.CurrentBid == NoMode {
			return fmt.Errorf("accept before any announcement")
		}
		b.ConsecutiveAccepts++
		b.accepted[p] = true
		if b.CurrentBidder.Team() != team && (b.CurrentBid == NoTrumps || b.CurrentBid == ColourClubs) {
			b.Locked = true
		}
		if b.firstAct[p] < 0 {
			b.firstAct[p] = i
		}
	case Double:
		m := a.Mode
		if m > AllTrumps || b.AnnounceIndex[m] < 0 || b.AnnouncedBy[m].Team() == team || b.DoubleIndex[m] >= 0 ||
			(b.firstAct[p] >= 0 && b.AnnounceIndex[m] < b.firstAct[p]) {
			return fmt.Errorf("double not allowed")
		}
		b.DoubleIndex[m] = i
		b.Locked = true
		b.ConsecutiveAccepts = 0
	case Redouble:
		m := a.Mode
		if m > AllTrumps || m == NoTrumps || b.DoubleIndex[m] < 0 || b.Redoubled[m] || b.AnnouncedBy[m].Team() != team {
			return fmt.Errorf("redouble not allowed")
		}
		b.Redoubled[m] = true
		b.ConsecutiveAccepts = 0
	default:
		return fmt.Errorf("unknown action type")
	}
	b.CurrentPlayer = p.Next()
	return nil
}

// Multiplier is the contract's multiplier.
type Multiplier uint8

const (
	Normal Multiplier = iota
	Doubled
	Redoubled
)

var multiplierNames = [3]string{"Normal", "Doubled", "Redoubled"}

func (m Multiplier) String() string {
	if m < 3 {
		return multiplierNames[m]
	}
	return "Normal"
}

// Factor is 1, 2 or 4.
func (m Multiplier) Factor() int { return 1 << m }

// ParseMultiplier parses "Normal"/"Doubled"/"Redoubled" and the seed's "None".
func ParseMultiplier(s string) (Multiplier, bool) {
	switch strings.ToLower(s) {
	case "normal", "none":
		return Normal, true
	case "doubled":
		return Doubled, true
	case "redoubled":
		return Redoubled, true
	}
	return Normal, false
}

// Contract is what a negotiation resolves to.
type Contract struct {
	Mode       Mode
	Multiplier Multiplier
	Announcer  Position // the seat that announced Mode
}

// AnnouncerTeam is the team that must make the contract.
func (c Contract) AnnouncerTeam() Team { return c.Announcer.Team() }

// Contract resolves a finished (or, for inference, unfinished) negotiation:
// the earliest announced doubled mode, x2 or x4 if redoubled; else the last
// bid x1. ok is false when nothing was announced.
func (b *Bidding) Contract() (Contract, bool) {
	best := NoMode
	for m := Mode(0); m <= AllTrumps; m++ {
		if b.DoubleIndex[m] >= 0 && (best == NoMode || b.AnnounceIndex[m] < b.AnnounceIndex[best]) {
			best = m
		}
	}
	if best != NoMode {
		mul := Doubled
		if b.Redoubled[best] {
			mul = Redoubled
		}
		return Contract{Mode: best, Multiplier: mul, Announcer: b.AnnouncedBy[best]}, true
	}
	if b.CurrentBid == NoMode {
		return Contract{Mode: NoMode}, false
	}
	return Contract{Mode: b.CurrentBid, Multiplier: Normal, Announcer: b.CurrentBidder}, true
}
