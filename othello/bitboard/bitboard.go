// Package bitboard holds the board primitives both Othello engines (and
// the rules) build on: move generation, flips, neighbours, stable discs
// and perft, as pure functions of bitboards. It knows no game mode and
// imports no engine.
//
// An 8×8 board is a uint64: bit i is square i (a1 = 0, h1 = 7, a2 = 8, …,
// h8 = 63); a position is two of them, the side to move's discs and the
// opponent's. A 10×10 board is a Bits10 (bits10.go).
package bitboard

import "math/bits"

const (
	notAFile = 0xfefefefefefefefe
	notHFile = 0x7f7f7f7f7f7f7f7f
	inner    = 0x7e7e7e7e7e7e7e7e
)

// Centre is the four centre squares of an 8×8 board: d4, e4, d5, e5.
const Centre = 1<<27 | 1<<28 | 1<<35 | 1<<36

// line returns the squares reached by sliding from p over a run of at
// least one mask square, both ways along one line: shift d, and d2 = 2d.
// It is written to be small enough for the compiler to inline (at the
// edge of its budget: go build -gcflags=-m says whether it does), which
// makes the shifts constant in Moves: a leaf of the midgame search
// generates both sides' moves, and a call per line made that 52 ns a
// pair against 30 (BenchmarkMoves).
func line(p, mask uint64, d, d2 uint) uint64 {
	fl := mask & (p << d)
	fl |= mask & (fl << d)
	fr := mask & (p >> d)
	fr |= mask & (fr >> d)
	pl := mask & (mask << d)
	fl |= pl & (fl << d2)
	fl |= pl & (fl << d2)
	pl >>= d
	fr |= pl & (fr >> d2)
	fr |= pl & (fr >> d2)
	return fl<<d | fr>>d
}

// Moves returns the legal moves of p against o (Kogge–Stone fill).
func Moves(p, o uint64) uint64 {
	mo := o & inner
	m := line(p, mo, 1, 2) | line(p, o, 8, 16) | line(p, mo, 7, 14) | line(p, mo, 9, 18)
	return m &^ (p | o)
}

// rays[sq][d] is the set of squares from sq (exclusive) to the board edge
// in direction d. Directions 0–3 increase the square index, 4–7 decrease it.
var rays [64][8]uint64

func init() {
	dirs := [8][2]int{{1, 0}, {-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, -1}, {0, -1}, {-1, -1}}
	for sq := range 64 {
		for d, v := range dirs {
			c, r := sq%8+v[0], sq/8+v[1]
			for c >= 0 && c < 8 && r >= 0 && r < 8 {
				rays[sq][d] |= 1 << uint(r*8+c)
				c += v[0]
				r += v[1]
			}
		}
	}
}

// Flips returns the discs of o that p flips by playing on the empty
// square sq (none: sq is not a legal move).
//
// The three rays that run down the board are walked up instead, on the
// board turned upside down (a byte swap, one instruction): a ray of
// increasing indices finds its first non-opponent square with x & -x,
// where a decreasing one needs a leading-zero count and a variable shift:
// 11.2 ns a flip against 12.3 walking them down (BenchmarkFlips).
func Flips(sq int, p, o uint64) uint64 {
	sq &= 63
	r := &rays[sq]
	f := flipUp(r[0], p, o) | flipUp(r[1], p, o) | flipUp(r[2], p, o) | flipUp(r[3], p, o) | flipDown(r[4], p, o)
	// Upside down, square sq is sq^56, and the rays south-east, south and
	// south-west (5, 6, 7) are its rays north-east, north and north-west
	// (3, 2, 1).
	pr, or := bits.ReverseBytes64(p), bits.ReverseBytes64(o)
	m := &rays[sq^56]
	down := flipUp(m[1], pr, or) | flipUp(m[2], pr, or) | flipUp(m[3], pr, or)
	return f | bits.ReverseBytes64(down)
}

// flipUp returns the flips along a ray of increasing square indices: the
// opponent discs below the first non-opponent square, if that square is p's.
func flipUp(ray, p, o uint64) uint64 {
	x := ray &^ o
	first := x & -x
	t := first & p
	return ray & (first - 1) & -((t | -t) >> 63) // branch-free: 0 unless t ≠ 0
}

// flipDown is flipUp for a ray of decreasing square indices.
func flipDown(ray, p, o uint64) uint64 {
	x := ray &^ o
	first := uint64(1<<63) >> uint(bits.LeadingZeros64(x)) // 0 when x is 0
	t := first & p
	return ray &^ (first<<1 - 1) & -((t | -t) >> 63)
}

// LastFlipCount is the number of discs p flips by playing sq when o holds
// every other square but sq (the last empty square). Counting Flips' discs
// is no slower than walking the rays with a branch for each
// (BenchmarkLastFlipCount), and leaves one flip routine to keep right.
func LastFlipCount(sq int, p uint64) int {
	return bits.OnesCount64(Flips(sq, p, ^p&^(1<<uint(sq&63))))
}

// Neighbours returns the squares adjacent to b (b's own squares too where
// they touch each other).
func Neighbours(b uint64) uint64 {
	h := (b<<1)&notAFile | (b>>1)&notHFile
	x := b | h
	return h | x<<8 | x>>8
}

// neighbourOf[sq] is Neighbours(1<<sq).
var neighbourOf = func() (n [64]uint64) {
	for sq := range n {
		n[sq] = Neighbours(1 << uint(sq))
	}
	return n
}()

// NeighbourOf returns the squares adjacent to square sq: a table's, for
// the endgame's last empties, which ask it of every empty square.
func NeighbourOf(sq int) uint64 { return neighbourOf[sq&63] }

// Potential is the potential mobility of the side whose opponent holds o:
// the empty squares next to an opponent disc.
func Potential(o, empty uint64) int { return bits.OnesCount64(Neighbours(o) & empty) }

// Stable discs: a disc is stable when, on each of its four lines, the line
// is full or a neighbour on it is the edge or a stable disc of its colour.
var (
	lineMasks [4][]uint64 // the board's lines per direction
)

func init() {
	for r := range 8 { // rows, columns
		lineMasks[0] = append(lineMasks[0], 0xff<<uint(8*r))
		lineMasks[1] = append(lineMasks[1], 0x0101010101010101<<uint(r))
	}
	for k := -7; k <= 7; k++ { // diagonals (NE) and anti-diagonals (NW)
		var d, a uint64
		for c := range 8 {
			if r := c + k; r >= 0 && r < 8 {
				d |= 1 << uint(r*8+c)
			}
			if r := 7 - c + k; r >= 0 && r < 8 {
				a |= 1 << uint(r*8+c)
			}
		}
		lineMasks[2] = append(lineMasks[2], d)
		lineMasks[3] = append(lineMasks[3], a)
	}
}

// fullLines returns, per direction, the squares whose line in that
// direction is full.
func fullLines(occ uint64) [4]uint64 {
	var full [4]uint64
	// Rows and columns by bit tricks, diagonals by their masks.
	r := occ & (occ >> 1) & (occ >> 2) & (occ >> 3)
	r &= r >> 4
	r &= 0x0101010101010101
	full[0] = r * 0xff
	c := occ & (occ >> 8)
	c &= c >> 16
	c &= c >> 32
	full[1] = (c & 0xff) * 0x0101010101010101
	for d := 2; d < 4; d++ {
		for _, ln := range lineMasks[d] {
			if occ&ln == ln {
				full[d] |= ln
			}
		}
	}
	return full
}

// Stable returns discs of p that can never be flipped (a subset of the
// truly stable ones: lines full, edges, and stable neighbours).
func Stable(p, o uint64) uint64 {
	full := fullLines(p | o)
	const edgeH = 0x8181818181818181 // a and h files: E–W neighbour is the edge
	const edgeV = 0xff000000000000ff // ranks 1 and 8
	const edgeD = edgeH | edgeV
	var st uint64
	for {
		h := full[0] | edgeH | (st<<1)&notAFile | (st>>1)&notHFile
		v := full[1] | edgeV | st<<8 | st>>8
		d := full[2] | edgeD | (st<<9)&notAFile | (st>>9)&notHFile
		a := full[3] | edgeD | (st<<7)&notHFile | (st>>7)&notAFile
		next := p & h & v & d & a
		if next == st {
			return st
		}
		st = next
	}
}

// Perft counts the leaves of the game tree to depth plies (a pass is a
// ply, a finished game a leaf): the move generator's oracle.
func Perft(p, o uint64, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	m := Moves(p, o)
	if m == 0 {
		if Moves(o, p) == 0 {
			return 1
		}
		return Perft(o, p, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(m))
	}
	var n uint64
	for ; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := Flips(sq, p, o)
		n += Perft(o&^f, p|f|1<<uint(sq), depth-1)
	}
	return n
}
