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

// Flips returns the discs of o that p flips by playing on the empty
// square sq (none: sq is not a legal move).
//
// It works line by line: each of the four lines through the square is
// gathered into a byte (a shift, or a multiplication that sums the
// line's one square per row into the top byte), two small tables (2.5
// KB, in the first-level cache) give the flipped squares of that byte,
// and they go back to their squares. That took 9.2–9.4 ns a flip where
// walking the eight rays took 14.1–16.9 (BenchmarkFlips, the same
// machine, alternating runs).
func Flips(sq int, p, o uint64) uint64 {
	sq &= 63
	x, y := uint(sq&7), uint(sq>>3)
	// The row.
	f := uint64(lineFlips(x, uint8(p>>(8*y)), uint8(o>>(8*y)))) << (8 * y)
	// The column: square (x, r) to bit r of the byte.
	f |= byteToFile[lineFlips(y, fileByte(p, x), fileByte(o, x))] << x
	// The diagonals: each row holds one square of the line, in a distinct
	// column, so the sum of the rows is the line by column; the flipped
	// byte, copied to every row, is cut back to the line by its mask.
	d := diag[sq]
	f |= uint64(lineFlips(x, diagByte(p, d), diagByte(o, d))) * fileA & d
	d = anti[sq]
	f |= uint64(lineFlips(x, diagByte(p, d), diagByte(o, d))) * fileA & d
	return f
}

// lineFlips is the bits a move on bit x of a line flips, the line's own
// discs p and the opponent's o.
func lineFlips(x uint, p, o uint8) uint8 {
	x &= 7
	return flipped8[x][outflank8[x][o>>1&63]&p]
}

// fileByte is column x of b as a byte, bit r from row r.
func fileByte(b uint64, x uint) uint8 { return uint8(b >> x & fileA * fileToByte >> 56) }

// diagByte is a diagonal line d of b as a byte, bit c from column c.
func diagByte(b, d uint64) uint8 { return uint8(b & d * fileA >> 56) }

const (
	fileA      = 0x0101010101010101
	fileToByte = 0x0102040810204080 // bit 8r to bit 56+r, without carries
)

var (
	// outflank8[x][o] is, for a move on bit x of a line whose opponent
	// discs on bits 1–6 are o, the bits that end a run of at least one
	// opponent disc next to x, each way: the move flips the run if its own
	// disc is there. (Discs on bits 0 and 7 can never be flipped.)
	outflank8 [8][64]uint8
	// flipped8[x][b] is the bits strictly between x and each bit of b.
	flipped8 [8][256]uint8
	// byteToFile[b] puts bit r of b on square (0, r).
	byteToFile [256]uint64
	// lastCount8[x][b] is how many discs a move on bit x of a line flips
	// when its own discs are b and every other bit of the line is the
	// opponent's. A diagonal's bits off the board count as the opponent's:
	// a run that reaches them finds no own disc beyond, as it should.
	lastCount8 [8][256]uint8
	// diag and anti are the diagonal (a1–h8 direction) and anti-diagonal
	// (h1–a8 direction) through each square, the square included.
	diag, anti [64]uint64
)

func init() {
	for x := range 8 {
		for o6 := range 64 {
			o := uint(o6) << 1
			var out uint8
			for _, step := range []int{-1, 1} {
				j := x + step
				for j >= 0 && j < 8 && o>>uint(j)&1 != 0 {
					j += step
				}
				if j != x+step && j >= 0 && j < 8 {
					out |= 1 << uint(j)
				}
			}
			outflank8[x][o6] = out
		}
		for b := range 256 {
			var f uint8
			for j := range 8 {
				if b>>uint(j)&1 == 0 {
					continue
				}
				lo, hi := min(x, j), max(x, j)
				for k := lo + 1; k < hi; k++ {
					f |= 1 << uint(k)
				}
			}
			flipped8[x][b] = f
			// flipped8[x] is filled up to b by now: outflank & b ≤ b.
			lastCount8[x][b] = uint8(bits.OnesCount8(lineFlips(uint(x), uint8(b), ^uint8(b)&^(1<<uint(x)))))
		}
	}
	for b := range 256 {
		for r := range 8 {
			if b>>uint(r)&1 != 0 {
				byteToFile[b] |= 1 << uint(8*r)
			}
		}
	}
	for sq := range 64 {
		x, y := sq&7, sq>>3
		for c := range 8 {
			if r := y + c - x; r >= 0 && r < 8 {
				diag[sq] |= 1 << uint(8*r+c)
			}
			if r := y - (c - x); r >= 0 && r < 8 {
				anti[sq] |= 1 << uint(8*r+c)
			}
		}
	}
}

// LastFlipCount is the number of discs p flips by playing sq when o holds
// every other square but sq (the last empty square). With o known, each
// line needs only p's byte and one table (lastCount8): BenchmarkLastFlipCount
// took 3.4 ns a count where counting the discs Flips returns took
// 14.9–17.6 (alternating runs).
func LastFlipCount(sq int, p uint64) int {
	sq &= 63
	x, y := uint(sq&7), uint(sq>>3)
	// Written out rather than with fileByte and diagByte: so it stays
	// within the compiler's inlining budget (go build -gcflags=-m), and
	// the endgame's last move calls it inline.
	n := lastCount8[x][uint8(p>>(8*y))] +
		lastCount8[y][uint8((p>>x)&fileA*fileToByte>>56)] +
		lastCount8[x][uint8((p&diag[sq])*fileA>>56)] +
		lastCount8[x][uint8((p&anti[sq])*fileA>>56)]
	return int(n)
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

// fullLines returns, per direction (rows, columns, a1–h8 diagonals,
// h1–a8 diagonals), the squares whose line in that direction is full.
// The diagonals spread the empty squares along their line both ways (1,
// 2, then 4 steps: up to 7), so that what is left is on a line with no
// empty square: a dozen shifts, where testing each of the 30 diagonals
// against its mask took 5% of an exact solve of FFO #49.
func fullLines(occ uint64) [4]uint64 {
	var full [4]uint64
	r := occ & (occ >> 1) & (occ >> 2) & (occ >> 3)
	r &= r >> 4
	r &= fileA
	full[0] = r * 0xff
	c := occ & (occ >> 8)
	c &= c >> 16
	c &= c >> 32
	full[1] = (c & 0xff) * fileA
	full[2] = ^spread(^occ, 9, notAFile, notAB, notABCD, notHFile, notGH, notEFGH) // a1–h8: a step is +9, a file right
	full[3] = ^spread(^occ, 7, notHFile, notGH, notEFGH, notAFile, notAB, notABCD) // h1–a8: a step is +7, a file left
	return full
}

// The squares a shift of 2 or 4 files may land on without wrapping round
// a row (notAFile and notHFile: of 1 file).
const (
	notAB   = 0xfcfcfcfcfcfcfcfc
	notABCD = 0xf0f0f0f0f0f0f0f0
	notGH   = 0x3f3f3f3f3f3f3f3f
	notEFGH = 0x0f0f0f0f0f0f0f0f
)

// spread returns e with every square reached from it along lines whose
// step is d: shifts of d, 2d and 4d up, each cut to the squares it may
// land on (u1, u2, u4), then the same down (d1, d2, d4). Written to be
// inlined with constant masks.
func spread(e uint64, d uint, u1, u2, u4, d1, d2, d4 uint64) uint64 {
	e |= e << d & u1
	e |= e << (2 * d) & u2
	e |= e << (4 * d) & u4
	e |= e >> d & d1
	e |= e >> (2 * d) & d2
	e |= e >> (4 * d) & d4
	return e
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
