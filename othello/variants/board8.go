package variants

import (
	"context"
	"math/bits"

	"github.com/botarena/gamebot/othello/bitboard"
)

// bits8 is a set of squares of an 8×8 board: bit i is square i (a1 = 0,
// h1 = 7, a2 = 8, h8 = 63). Its methods are named as bitboard.Bits10's,
// so that search8.go reads the same at both sizes.
type bits8 uint64

func (b bits8) Count() int      { return bits.OnesCount64(uint64(b)) }
func (b bits8) IsZero() bool    { return b == 0 }
func (b bits8) Has(sq int) bool { return b>>uint(sq)&1 != 0 }

// Pop removes and returns the lowest square of a non-empty set.
func (b *bits8) Pop() int {
	sq := bits.TrailingZeros64(uint64(*b))
	*b &= *b - 1
	return sq
}

func (b bits8) Or(c bits8) bits8     { return b | c }
func (b bits8) And(c bits8) bits8    { return b & c }
func (b bits8) AndNot(c bits8) bits8 { return b &^ c }

func bit8(sq int) bits8 { return 1 << uint(sq) }

const (
	boardSize8 = 8
	notAFile8  = 0xfefefefefefefefe
	notHFile8  = 0x7f7f7f7f7f7f7f7f
	centre8    = bits8(bitboard.Centre)
	numSq8     = 64
	maxMoves8  = 40 // more than any 8×8 position has
)

// moves8 returns the legal Othello moves of p against o, and flips8 the
// discs of o that p flips by playing on the empty square sq.
func moves8(p, o bits8) bits8 { return bits8(bitboard.Moves(uint64(p), uint64(o))) }

func flips8(sq int, p, o bits8) bits8 { return bits8(bitboard.Flips(sq, uint64(p), uint64(o))) }

// pos8 is an 8×8 position from the side to move: p its discs, o the
// opponent's, pp/op how many discs each has placed (classic Reversi's cap).
type pos8 struct {
	p, o   bits8
	pp, op int16
}

// playOn8 plays sq for the side to move and returns the position from the
// opponent's view. In the Reversi centre phase nothing flips.
func playOn8(pos pos8, sq int) pos8 {
	var f bits8
	if centre8&^(pos.p|pos.o) == 0 {
		f = flips8(sq, pos.p, pos.o)
	}
	return pos.after(sq, f)
}

// after is the position once the side to move has played sq, flipping f.
func (pos pos8) after(sq int, f bits8) pos8 {
	return pos8{p: pos.o &^ f, o: pos.p | f | bit8(sq), pp: pos.op, op: pos.pp + 1}
}

func (pos pos8) pass() pos8 { return pos8{p: pos.o, o: pos.p, pp: pos.op, op: pos.pp} }

func (pos pos8) hash() uint64 {
	h := uint64(pos.p)*0x9E3779B97F4A7C15 ^ bits.RotateLeft64(uint64(pos.o)*0xC2B2AE3D27D4EB4F, 31) ^ uint64(pos.pp)*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// Search chooses among moves, the legal moves of the side to move holding
// p against o (having placed placed discs, the opponent oppPlaced), by
// iterative deepening within the limits. The result's move is always one
// of moves; moves must not be empty.
func (s *Searcher8) Search(ctx context.Context, p, o uint64, placed, oppPlaced int, moves []int, lim Limits) Result {
	s.exactEmpties = lim.ExactEmpties
	res := s.searchRoot(ctx, pos8{p: bits8(p), o: bits8(o), pp: int16(placed), op: int16(oppPlaced)}, moves, lim.Soft, lim.Deadline, lim.MaxDepth)
	s.ctx = nil
	return res.result()
}

// Board-specific searcher primitives for 8×8 (the rest of Searcher8 is in
// search8.go and is generated for 10×10).

// moves returns the legal moves of the side to move. In classic Reversi a
// side that has placed its cap of discs has none, and while a centre
// square is empty only the empty centre squares may be played.
func (s *Searcher8) moves(pos pos8) bits8 {
	if s.reversi {
		if pos.pp >= s.maxPlaced {
			return 0
		}
		if c := centre8 &^ (pos.p | pos.o); c != 0 {
			return c
		}
	}
	return moves8(pos.p, pos.o)
}

func (s *Searcher8) play(pos pos8, sq int) pos8 { return playOn8(pos, sq) }

func (s *Searcher8) empties(pos pos8) int { return s.nPlay - pos.p.Or(pos.o).Count() }

// neighbours returns the squares adjacent to b.
func (s *Searcher8) neighbours(b bits8) bits8 { return bits8(bitboard.Neighbours(uint64(b))) &^ b }

// lineNeighbours returns the squares next to st along line direction d
// (0 E–W, 1 N–S, 2 NE–SW, 3 NW–SE).
func (s *Searcher8) lineNeighbours(st bits8, d int) bits8 {
	x := uint64(st)
	switch d {
	case 0:
		return bits8((x<<1)&notAFile8 | (x>>1)&notHFile8)
	case 1:
		return bits8(x<<8 | x>>8)
	case 2:
		return bits8((x<<9)&notAFile8 | (x>>9)&notHFile8)
	default:
		return bits8((x<<7)&notHFile8 | (x>>7)&notAFile8)
	}
}
