package othello

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/botarena/gamebot/othello/bitboard"
)

// Cell values as the protocol sends them.
const (
	Empty = 0
	Black = 1
	White = 2
)

// Pass is the move index of a pass.
const Pass = -1

// State is a complete game state of any mode, in the protocol's terms:
// Cells[i] is 0 (empty or blocked), 1 (black) or 2 (white). It is the slow,
// convenient representation used at the edges (requests, matches, the fake
// server); the search works on bitboards.
type State struct {
	Mode   Mode
	Cells  []int8
	Turn   int    // side to move: Black or White
	Placed [2]int // discs placed by black, white (incl. opening moves)
}

// NewState returns the initial position of mode: the four centre discs for
// std, anti, grand and octagon, an empty board for classic
// reversi. Black moves first; Placed starts at 0/0.
func NewState(mode Mode) *State {
	s := &State{Mode: mode, Cells: make([]int8, mode.Squares()), Turn: Black}
	switch mode.Size() {
	case 8:
		if mode != Reversi {
			s.Cells[27], s.Cells[28], s.Cells[35], s.Cells[36] = White, Black, Black, White
		}
	case 10:
		s.Cells[44], s.Cells[45], s.Cells[54], s.Cells[55] = White, Black, Black, White
	}
	return s
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Cells = append([]int8(nil), s.Cells...)
	return &c
}

// Discs counts black and white discs.
func (s *State) Discs() (black, white int) {
	for _, c := range s.Cells {
		switch c {
		case Black:
			black++
		case White:
			white++
		}
	}
	return black, white
}

// Empties counts the empty playable squares (octagon's blocked squares
// are not squares of the game).
func (s *State) Empties() int {
	b, w := s.Discs()
	return s.Mode.PlayableSquares() - b - w
}

// Bitboards returns an 8×8 position as the mover's and the opponent's
// discs, a1 = bit 0 (othello/bitboard's form).
func (s *State) Bitboards() (mover, opponent uint64) {
	for i, c := range s.Cells {
		switch {
		case int(c) == s.Turn:
			mover |= 1 << uint(i)
		case c != Empty:
			opponent |= 1 << uint(i)
		}
	}
	return mover, opponent
}

func (s *State) masks10() (p, o bitboard.Bits10) {
	for i, c := range s.Cells {
		switch {
		case int(c) == s.Turn:
			p = p.Or(bitboard.Bit10(i))
		case c != Empty:
			o = o.Or(bitboard.Bit10(i))
		}
	}
	return p, o
}

func playable10(mode Mode) bitboard.Bits10 {
	pl := bitboard.Full10()
	for _, sq := range mode.Blocked() {
		pl = pl.AndNot(bitboard.Bit10(sq))
	}
	return pl
}

// LegalMoves returns the legal squares of the side to move, ascending.
func (s *State) LegalMoves() []int {
	var out []int
	if s.Mode.Size() == 8 {
		p, o := s.Bitboards()
		for m := s.moves8(p, o); m != 0; m &= m - 1 {
			out = append(out, bits.TrailingZeros64(m))
		}
		return out
	}
	p, o := s.masks10()
	m := bitboard.Moves10(p, o, playable10(s.Mode).AndNot(p.Or(o)))
	for !m.IsZero() {
		out = append(out, m.Pop())
	}
	return out
}

// moves8 are the moves of the side to move on an 8×8 board. In classic
// Reversi a side that has placed MaxPlaced discs has none, and while a
// centre square is empty only the empty centre squares may be played.
func (s *State) moves8(p, o uint64) uint64 {
	if s.Mode == Reversi {
		if s.Placed[s.Turn-1] >= MaxPlaced {
			return 0
		}
		if c := bitboard.Centre &^ (p | o); c != 0 {
			return c
		}
	}
	return bitboard.Moves(p, o)
}

// ErrIllegalMove is returned by Play for a move the rules forbid.
var ErrIllegalMove = errors.New("illegal move")

// Play plays sq (or Pass) for the side to move. A pass is legal only when
// the side to move has no legal move and the game is not over.
func (s *State) Play(sq int) error {
	legal := s.LegalMoves()
	if sq == Pass {
		if len(legal) > 0 {
			return fmt.Errorf("%w: pass while %d moves are legal", ErrIllegalMove, len(legal))
		}
		if s.Over() {
			return fmt.Errorf("%w: the game is over", ErrIllegalMove)
		}
		s.Turn = 3 - s.Turn
		return nil
	}
	ok := false
	for _, m := range legal {
		ok = ok || m == sq
	}
	if !ok {
		return fmt.Errorf("%w: %s (%d) for %s", ErrIllegalMove, SquareName(sq, s.Mode.Size()), sq, colorName(s.Turn))
	}
	s.apply(sq)
	return nil
}

// apply places a disc of the side to move on sq with the mode's flips,
// without checking legality, and hands the turn over.
func (s *State) apply(sq int) {
	me := int8(s.Turn)
	if s.Mode.Size() == 8 {
		p, o := s.Bitboards()
		if bitboard.Centre&^(p|o) == 0 { // nothing flips in Reversi's centre phase
			for f := bitboard.Flips(sq, p, o); f != 0; f &= f - 1 {
				s.Cells[bits.TrailingZeros64(f)] = me
			}
		}
	} else {
		p, o := s.masks10()
		for f := bitboard.Flips10(sq, p, o); !f.IsZero(); {
			s.Cells[f.Pop()] = me
		}
	}
	s.Cells[sq] = me
	s.Placed[s.Turn-1]++
	s.Turn = 3 - s.Turn
}

// Over reports whether neither side can move.
func (s *State) Over() bool {
	if len(s.LegalMoves()) > 0 {
		return false
	}
	s.Turn = 3 - s.Turn
	n := len(s.LegalMoves())
	s.Turn = 3 - s.Turn
	return n == 0
}

func colorName(c int) string {
	if c == Black {
		return "black"
	}
	return "white"
}

// Winner returns the winning colour of a finished game under the mode's
// scoring (anti: fewer discs wins), or 0 for a draw.
func (s *State) Winner() int {
	b, w := s.Discs()
	if s.Mode == Anti {
		b, w = w, b
	}
	switch {
	case b > w:
		return Black
	case w > b:
		return White
	}
	return 0
}
