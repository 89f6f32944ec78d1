package othello

import (
	"fmt"
	"strings"
)

// Mode is a FlipSight game mode.
type Mode uint8

// The five FlipSight game modes.
const (
	Std     Mode = iota // 8×8 Othello
	Anti                // 8×8, fewer discs wins
	Grand               // 10×10 Othello
	Octagon             // 10×10 with 12 blocked squares
	Reversi             // 8×8 classic Reversi: centre phase, 32 discs per colour
)

var modeNames = [...]string{Std: "std", Anti: "anti", Grand: "grand", Octagon: "octagon", Reversi: "reversi"}

// Modes lists every mode in protocol order.
func Modes() []Mode { return []Mode{Std, Anti, Grand, Octagon, Reversi} }

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode maps a protocol game_mode string to a Mode.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown game_mode %q (want std, anti, grand, octagon or reversi)", s)
}

// Size is the board's side length: 8 or 10.
func (m Mode) Size() int {
	if m == Grand || m == Octagon {
		return 10
	}
	return 8
}

// Squares is Size()².
func (m Mode) Squares() int { return m.Size() * m.Size() }

// octagonBlocked is the octagon mode's blocked squares in the order the
// server sends them (not sorted); Blocked hands out copies.
var octagonBlocked = [...]int{0, 1, 10, 8, 9, 19, 80, 90, 91, 89, 98, 99}

// Blocked returns the blocked squares of the mode (nil for all but octagon).
func (m Mode) Blocked() []int {
	if m == Octagon {
		return append([]int(nil), octagonBlocked[:]...)
	}
	return nil
}

// PlayableSquares is the number of squares that can hold a disc: 64, 100 or 88.
func (m Mode) PlayableSquares() int { return m.Squares() - len(m.Blocked()) }

// MaxPlaced is the per-colour placement limit (classic Reversi only).
const MaxPlaced = 32

// ParseModes reads a comma-separated list of modes, or "all".
func ParseModes(s string) ([]Mode, error) {
	if s == "all" {
		return Modes(), nil
	}
	var list []Mode
	for _, name := range strings.Split(s, ",") {
		m, err := ParseMode(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		list = append(list, m)
	}
	return list, nil
}
