package othello

import (
	"math/bits"

	"github.com/botarena/gamebot/othello/std"
)

// bits8 is a set of squares of an 8×8 board: bit i is square i (a1 = 0,
// h1 = 7, a2 = 8, h8 = 63).
type bits8 uint64

func (b bits8) count() int      { return bits.OnesCount64(uint64(b)) }
func (b bits8) isZero() bool    { return b == 0 }
func (b bits8) has(sq int) bool { return b>>uint(sq)&1 != 0 }

// pop removes and returns the lowest square of a non-empty set.
func (b *bits8) pop() int {
	sq := bits.TrailingZeros64(uint64(*b))
	*b &= *b - 1
	return sq
}

func bit8(sq int) bits8 { return 1 << uint(sq) }

const (
	notAFile8  = 0xfefefefefefefefe
	notHFile8  = 0x7f7f7f7f7f7f7f7f
	centre8    = bits8(1<<27 | 1<<28 | 1<<35 | 1<<36)
	numSq8     = 64
	maxMoves8  = 40 // more than any 8×8 position has
	corners8   = bits8(1 | 1<<7 | 1<<56 | 1<<63)
	fullBoard8 = ^bits8(0)
)

// moves8 returns the legal Othello moves of p against o, and flips8 the
// discs of o that p flips by playing on the empty square sq: the std
// engine's bitboard primitives, shared by both searchers.
func moves8(p, o bits8) bits8 { return bits8(std.Moves(uint64(p), uint64(o))) }

func flips8(sq int, p, o bits8) bits8 { return bits8(std.Flips(sq, uint64(p), uint64(o))) }

// pos8 is an 8×8 position from the side to move: p its discs, o the
// opponent's, pp/op how many discs each has placed (classic Reversi limit).
type pos8 struct {
	p, o   bits8
	pp, op int16
}

// movesOf8 returns the legal moves of the side to move. In Reversi mode a
// side that has placed MaxPlaced discs has none, and while a centre square is
// empty only the empty centre squares may be played.
func movesOf8(pos pos8, reversi bool) bits8 {
	if reversi {
		if pos.pp >= MaxPlaced {
			return 0
		}
		if c := centre8 &^ (pos.p | pos.o); c != 0 {
			return c
		}
	}
	return moves8(pos.p, pos.o)
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

func (pos pos8) empties() int { return 64 - (pos.p | pos.o).count() }

func (pos pos8) hash() uint64 {
	h := uint64(pos.p)*0x9E3779B97F4A7C15 ^ bits.RotateLeft64(uint64(pos.o)*0xC2B2AE3D27D4EB4F, 31) ^ uint64(pos.pp)*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// perft8 counts the leaf nodes of the game tree to the given depth; a pass
// counts as a move, and a finished game is a leaf.
func perft8(pos pos8, depth int, reversi bool) uint64 {
	if depth == 0 {
		return 1
	}
	m := movesOf8(pos, reversi)
	if m == 0 {
		if movesOf8(pos.pass(), reversi) == 0 {
			return 1
		}
		return perft8(pos.pass(), depth-1, reversi)
	}
	if depth == 1 {
		return uint64(m.count())
	}
	var n uint64
	for m != 0 {
		n += perft8(playOn8(pos, m.pop()), depth-1, reversi)
	}
	return n
}

func (b bits8) or(c bits8) bits8     { return b | c }
func (b bits8) and(c bits8) bits8    { return b & c }
func (b bits8) andNot(c bits8) bits8 { return b &^ c }

// Board-specific searcher primitives for 8×8 (the rest of searcher8 is in
// search8.go and is generated for 10×10).

func (s *searcher8) moves(pos pos8) bits8 { return movesOf8(pos, s.reversi) }

func (s *searcher8) play(pos pos8, sq int) pos8 { return playOn8(pos, sq) }

func (s *searcher8) empties(pos pos8) int { return s.nPlay - pos.p.or(pos.o).count() }

// neighbours returns the squares adjacent to b.
func (s *searcher8) neighbours(b bits8) bits8 {
	x := uint64(b)
	h := (x<<1)&notAFile8 | (x>>1)&notHFile8
	x |= h
	return bits8(h|x<<8|x>>8) &^ b
}

// lineNeighbours returns the squares next to st along line direction d
// (0 E–W, 1 N–S, 2 NE–SW, 3 NW–SE).
func (s *searcher8) lineNeighbours(st bits8, d int) bits8 {
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
