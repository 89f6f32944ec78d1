// Package giretra implements the rules of Giretra (Malagasy Belote) as the
// Giretra engine codes them, a pure match simulator, and the players that
// decide cuts, bids and cards. It has no HTTP in it: the server and the
// referee translate wire JSON to and from the types here.
package giretra

import (
	"fmt"
	"iter"
	"math/bits"
	"strings"
)

// Suit is a card suit, in the engine's order.
type Suit uint8

const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

var suitNames = [4]string{"Clubs", "Diamonds", "Hearts", "Spades"}

func (s Suit) String() string {
	if s < 4 {
		return suitNames[s]
	}
	return fmt.Sprintf("Suit(%d)", uint8(s))
}

// Rank is a card rank, Seven (lowest index) to Ace, in the engine's order.
type Rank uint8

const (
	Seven Rank = iota
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

var rankNames = [8]string{"Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"}

func (r Rank) String() string {
	if r < 8 {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", uint8(r))
}

// Card is suit*8 + rank: 0..31.
type Card uint8

// NoCard marks an empty slot.
const NoCard Card = 0xFF

// NewCard returns the card of rank r in suit s.
func NewCard(r Rank, s Suit) Card { return Card(uint8(s)*8 + uint8(r)) }

func (c Card) Suit() Suit { return Suit(c >> 3) }
func (c Card) Rank() Rank { return Rank(c & 7) }

// Bit is the card as a one-card Set.
func (c Card) Bit() Set { return Set(1) << c }

func (c Card) String() string {
	if c > 31 {
		return "NoCard"
	}
	return c.Rank().String() + " of " + c.Suit().String()
}

// ParseSuit parses an engine suit name, ignoring case (the engine uses
// Enum.TryParse with ignoreCase).
func ParseSuit(s string) (Suit, bool) {
	for i, n := range suitNames {
		if strings.EqualFold(s, n) {
			return Suit(i), true
		}
	}
	return 0, false
}

// ParseRank parses an engine rank name, ignoring case.
func ParseRank(s string) (Rank, bool) {
	for i, n := range rankNames {
		if strings.EqualFold(s, n) {
			return Rank(i), true
		}
	}
	return 0, false
}

// Set is a set of cards, one bit per card; suit s occupies byte s.
type Set uint32

// FullDeck holds all 32 cards.
const FullDeck Set = 0xFFFFFFFF

// SuitMask is the set of the 8 cards of suit s.
func SuitMask(s Suit) Set { return Set(0xFF) << (8 * uint(s)) }

func (s Set) Has(c Card) bool       { return s&c.Bit() != 0 }
func (s Set) With(c Card) Set       { return s | c.Bit() }
func (s Set) Without(c Card) Set    { return s &^ c.Bit() }
func (s Set) Count() int            { return bits.OnesCount32(uint32(s)) }
func (s Set) Empty() bool           { return s == 0 }
func (s Set) OfSuit(su Suit) Set    { return s & SuitMask(su) }
func (s Set) CountSuit(su Suit) int { return s.OfSuit(su).Count() }

// First is the lowest-numbered card of a non-empty set.
func (s Set) First() Card { return Card(bits.TrailingZeros32(uint32(s))) }

// All iterates over the cards in ascending order.
func (s Set) All() iter.Seq[Card] {
	return func(yield func(Card) bool) {
		for x := uint32(s); x != 0; x &= x - 1 {
			if !yield(Card(bits.TrailingZeros32(x))) {
				return
			}
		}
	}
}

// Cards returns the cards in ascending order.
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Count())
	for c := range s.All() {
		out = append(out, c)
	}
	return out
}

func (s Set) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for c := range s.All() {
		if b.Len() > 1 {
			b.WriteByte(' ')
		}
		b.WriteString(c.Short())
	}
	b.WriteByte(']')
	return b.String()
}

// Short is a two-character name such as "JH" or "TS".
func (c Card) Short() string {
	if c > 31 {
		return "--"
	}
	return string("789TJQKA"[c.Rank()]) + string("CDHS"[c.Suit()])
}

// MarshalText is the card's text form, its two-character code (Short):
// game records and test tables write cards so.
func (c Card) MarshalText() ([]byte, error) {
	if c > 31 {
		return nil, fmt.Errorf("card %d out of range", uint8(c))
	}
	return []byte(c.Short()), nil
}

// UnmarshalText reads a card's two-character code: a rank of 789TJQKA
// and a suit of CDHS, as MarshalText writes them.
func (c *Card) UnmarshalText(b []byte) error {
	if len(b) == 2 {
		r := strings.IndexByte("789TJQKA", b[0])
		s := strings.IndexByte("CDHS", b[1])
		if r >= 0 && s >= 0 {
			*c = NewCard(Rank(r), Suit(s))
			return nil
		}
	}
	return fmt.Errorf("bad card %q (rank 789TJQKA, suit CDHS, as in JH)", b)
}

// MustParseCards parses two-character codes ("JH 9H AS") into a set; for
// tests and tools.
func MustParseCards(s string) Set {
	var out Set
	for f := range strings.FieldsSeq(s) {
		var c Card
		if err := c.UnmarshalText([]byte(f)); err != nil {
			panic(err)
		}
		out |= c.Bit()
	}
	return out
}

// Position is an absolute seat, clockwise: Bottom, Left, Top, Right.
type Position uint8

const (
	Bottom Position = iota
	Left
	Top
	Right
)

var positionNames = [4]string{"Bottom", "Left", "Top", "Right"}

func (p Position) String() string {
	if p < 4 {
		return positionNames[p]
	}
	return fmt.Sprintf("Position(%d)", uint8(p))
}

// ParsePosition parses a seat name, ignoring case.
func ParsePosition(s string) (Position, bool) {
	for i, n := range positionNames {
		if strings.EqualFold(s, n) {
			return Position(i), true
		}
	}
	return 0, false
}

// Next is the seat to the left (clockwise).
func (p Position) Next() Position { return (p + 1) & 3 }

// Previous is the seat to the right (anticlockwise).
func (p Position) Previous() Position { return (p + 3) & 3 }

// Partner is the seat opposite.
func (p Position) Partner() Position { return (p + 2) & 3 }

// Team is Team1 for Bottom/Top, Team2 for Left/Right.
func (p Position) Team() Team { return Team(p & 1) }

// Team is Team1 (Bottom+Top) or Team2 (Left+Right).
type Team uint8

const (
	Team1 Team = iota
	Team2
	NoTeam Team = 0xFF
)

func (t Team) String() string {
	switch t {
	case Team1:
		return "Team1"
	case Team2:
		return "Team2"
	}
	return "NoTeam"
}

// ParseTeam parses "Team1"/"Team2", ignoring case.
func ParseTeam(s string) (Team, bool) {
	switch strings.ToLower(s) {
	case "team1":
		return Team1, true
	case "team2":
		return Team2, true
	}
	return NoTeam, false
}

// Other is the opposing team.
func (t Team) Other() Team { return t ^ 1 }

// Mode is a game mode (contract), in bidding order.
type Mode uint8

const (
	ColourClubs Mode = iota
	ColourDiamonds
	ColourHearts
	ColourSpades
	NoTrumps
	AllTrumps
	NoMode Mode = 0xFF
)

var modeNames = [6]string{"ColourClubs", "ColourDiamonds", "ColourHearts", "ColourSpades", "NoTrumps", "AllTrumps"}

func (m Mode) String() string {
	if m < 6 {
		return modeNames[m]
	}
	return "NoMode"
}

// ParseMode parses a mode name, ignoring case.
func ParseMode(s string) (Mode, bool) {
	for i, n := range modeNames {
		if strings.EqualFold(s, n) {
			return Mode(i), true
		}
	}
	return NoMode, false
}

// IsColour reports whether m is one of the four Colour modes.
func (m Mode) IsColour() bool { return m <= ColourSpades }

// Mode families, by Family.
const (
	FamilyColour = iota
	FamilyNoTrumps
	FamilyAllTrumps
)

// FamilyNames names the families, by Family.
var FamilyNames = [3]string{"colour", "notrumps", "alltrumps"}

// Family is m's family: FamilyColour for the four Colours, FamilyNoTrumps
// or FamilyAllTrumps.
func (m Mode) Family() int {
	switch m {
	case NoTrumps:
		return FamilyNoTrumps
	case AllTrumps:
		return FamilyAllTrumps
	}
	return FamilyColour
}

// Trump is the trump suit of a Colour mode.
func (m Mode) Trump() Suit { return Suit(m) }

// IsTrump reports whether suit s is ranked as trumps in mode m.
func (m Mode) IsTrump(s Suit) bool {
	switch {
	case m == AllTrumps:
		return true
	case m.IsColour():
		return Suit(m) == s
	}
	return false
}

// Total is the card points of a deal in mode m, last-trick bonus included.
func (m Mode) Total() int {
	switch {
	case m == AllTrumps:
		return 258
	case m == NoTrumps:
		return 130
	}
	return 162
}
