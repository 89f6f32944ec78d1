package variants

import (
	"context"
	"math/bits"

	"github.com/botarena/gamebot/othello/bitboard"
)

// bits10 is a set of squares of a 10×10 board (bitboard.Bits10), named so
// that the 8×8 templates (search8.go, solve8.go) become the 10×10 searcher
// by renaming alone.
type bits10 = bitboard.Bits10

const (
	boardSize10 = 10
	numSq10     = 100
	maxMoves10  = 64
)

func bit10(sq int) bits10 { return bitboard.Bit10(sq) }

func flips10(sq int, p, o bits10) bits10 { return bitboard.Flips10(sq, p, o) }

// pos10 is a 10×10 position from the side to move. pp/op mirror pos8's
// placement counters; no 10×10 game caps them.
type pos10 struct {
	p, o   bits10
	pp, op int16
}

func playOn10(pos pos10, sq int) pos10 { return pos.after(sq, flips10(sq, pos.p, pos.o)) }

// after is the position once the side to move has played sq, flipping f.
func (pos pos10) after(sq int, f bits10) pos10 {
	return pos10{p: pos.o.AndNot(f), o: pos.p.Or(f).Or(bit10(sq)), pp: pos.op, op: pos.pp + 1}
}

func (pos pos10) pass() pos10 { return pos10{p: pos.o, o: pos.p, pp: pos.op, op: pos.pp} }

func (pos pos10) hash() uint64 {
	h := pos.p.Lo*0x9E3779B97F4A7C15 ^ bits.RotateLeft64(pos.o.Lo*0xC2B2AE3D27D4EB4F, 31) ^
		bits.RotateLeft64(pos.p.Hi*0x165667B19E3779F9, 17) ^ bits.RotateLeft64(pos.o.Hi*0xD6E8FEB86659FD93, 47)
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// Search chooses among moves, the legal moves of the side to move holding
// p against o, by iterative deepening within the limits. The result's
// move is always one of moves; moves must not be empty.
func (s *Searcher10) Search(ctx context.Context, p, o bitboard.Bits10, moves []int, lim Limits) Result {
	s.exactEmpties = lim.ExactEmpties
	res := s.searchRoot(ctx, pos10{p: p, o: o}, moves, lim.Soft, lim.Deadline, lim.MaxDepth)
	s.ctx = nil
	return res.result()
}

// Board-specific searcher primitives for 10×10.

func (s *Searcher10) moves(pos pos10) bits10 {
	return bitboard.Moves10(pos.p, pos.o, s.playable.AndNot(pos.p.Or(pos.o)))
}

func (s *Searcher10) play(pos pos10, sq int) pos10 { return playOn10(pos, sq) }

func (s *Searcher10) empties(pos pos10) int { return s.nPlay - pos.p.Or(pos.o).Count() }

var (
	notColA10 bits10 // every square but column a
	notColJ10 bits10 // every square but column j
)

func init() {
	for sq := range 100 {
		if sq%10 != 0 {
			notColA10 = notColA10.Or(bit10(sq))
		}
		if sq%10 != 9 {
			notColJ10 = notColJ10.Or(bit10(sq))
		}
	}
}

// neighbours returns the squares adjacent to b (blocked squares included;
// callers mask).
func (s *Searcher10) neighbours(b bits10) bits10 {
	h := b.Shl(1).And(notColA10).Or(b.Shr(1).And(notColJ10))
	x := b.Or(h)
	return h.Or(x.Shl(10)).Or(x.Shr(10)).AndNot(b)
}

// lineNeighbours returns the squares next to st along line direction d
// (0 E–W, 1 N–S, 2 NE–SW, 3 NW–SE).
func (s *Searcher10) lineNeighbours(st bits10, d int) bits10 {
	switch d {
	case 0:
		return st.Shl(1).And(notColA10).Or(st.Shr(1).And(notColJ10))
	case 1:
		return st.Shl(10).Or(st.Shr(10))
	case 2:
		return st.Shl(11).And(notColA10).Or(st.Shr(11).And(notColJ10))
	default:
		return st.Shl(9).And(notColJ10).Or(st.Shr(9).And(notColA10))
	}
}
