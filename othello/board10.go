package othello

import "math/bits"

// bits10 is a set of squares of a 10×10 board: squares 0–63 in lo, 64–99 in
// the low 36 bits of hi.
type bits10 struct{ lo, hi uint64 }

const (
	hiMask10   = 1<<36 - 1
	numSq10    = 100
	maxMoves10 = 64
)

var (
	full10    = bits10{^uint64(0), hiMask10}
	inner10   bits10 // columns b–i
	corners10 = bit10(0).or(bit10(9)).or(bit10(90)).or(bit10(99))
	centre10  = bit10(44).or(bit10(45)).or(bit10(54)).or(bit10(55))
)

func (b bits10) count() int   { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }
func (b bits10) isZero() bool { return b.lo|b.hi == 0 }
func (b bits10) has(sq int) bool {
	if sq < 64 {
		return b.lo>>uint(sq)&1 != 0
	}
	return b.hi>>uint(sq-64)&1 != 0
}

func (b *bits10) pop() int {
	if b.lo != 0 {
		sq := bits.TrailingZeros64(b.lo)
		b.lo &= b.lo - 1
		return sq
	}
	sq := bits.TrailingZeros64(b.hi)
	b.hi &= b.hi - 1
	return sq + 64
}

func bit10(sq int) bits10 {
	if sq < 64 {
		return bits10{lo: 1 << uint(sq)}
	}
	return bits10{hi: 1 << uint(sq-64)}
}

func (b bits10) or(c bits10) bits10     { return bits10{b.lo | c.lo, b.hi | c.hi} }
func (b bits10) and(c bits10) bits10    { return bits10{b.lo & c.lo, b.hi & c.hi} }
func (b bits10) andNot(c bits10) bits10 { return bits10{b.lo &^ c.lo, b.hi &^ c.hi} }

func (b bits10) shl(n uint) bits10 {
	return bits10{b.lo << n, (b.hi<<n | b.lo>>(64-n)) & hiMask10}
}

func (b bits10) shr(n uint) bits10 {
	return bits10{b.lo>>n | b.hi<<(64-n), b.hi >> n}
}

// moves10 returns the legal moves of p against o on the squares of empty.
func moves10(p, o, empty bits10) bits10 {
	var m bits10
	mi := o.and(inner10)
	for _, d := range [4]uint{1, 9, 10, 11} {
		mask := mi
		if d == 10 {
			mask = o
		}
		x := p.shl(d).and(mask)
		y := p.shr(d).and(mask)
		for range 7 {
			x = x.or(x.shl(d).and(mask))
			y = y.or(y.shr(d).and(mask))
		}
		m = m.or(x.shl(d)).or(y.shr(d))
	}
	return m.and(empty)
}

// rays10[sq][d]: squares from sq (exclusive) to the edge in direction d;
// directions 0–3 increase the index, 4–7 decrease it.
var rays10 [100][8]bits10

func init() {
	for sq := range 100 {
		if c := sq % 10; c > 0 && c < 9 {
			inner10 = inner10.or(bit10(sq))
		}
	}
	dirs := [8][2]int{{1, 0}, {-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, -1}, {0, -1}, {-1, -1}}
	for sq := range 100 {
		for d, v := range dirs {
			c, r := sq%10+v[0], sq/10+v[1]
			for c >= 0 && c < 10 && r >= 0 && r < 10 {
				rays10[sq][d] = rays10[sq][d].or(bit10(r*10 + c))
				c += v[0]
				r += v[1]
			}
		}
	}
}

// flips10 returns the discs of o that p flips by playing on the empty square
// sq. Blocked squares are in neither p nor o, so lines stop at them.
func flips10(sq int, p, o bits10) bits10 {
	var f bits10
	r := &rays10[sq]
	for d := range 4 {
		ray := r[d]
		x := ray.andNot(o)
		var below bits10 // squares below the first non-opponent square
		switch {
		case x.lo != 0:
			first := x.lo & -x.lo
			if first&p.lo == 0 {
				continue
			}
			below = bits10{lo: first - 1}
		case x.hi != 0:
			first := x.hi & -x.hi
			if first&p.hi == 0 {
				continue
			}
			below = bits10{lo: ^uint64(0), hi: first - 1}
		default:
			continue
		}
		f = f.or(ray.and(below))
	}
	for d := 4; d < 8; d++ {
		ray := r[d]
		x := ray.andNot(o)
		var above bits10 // squares above the first non-opponent square
		switch {
		case x.hi != 0:
			first := uint64(1) << uint(63-bits.LeadingZeros64(x.hi))
			if first&p.hi == 0 {
				continue
			}
			above = bits10{hi: ^(first<<1 - 1)}
		case x.lo != 0:
			first := uint64(1) << uint(63-bits.LeadingZeros64(x.lo))
			if first&p.lo == 0 {
				continue
			}
			above = bits10{lo: ^(first<<1 - 1), hi: ^uint64(0)}
		default:
			continue
		}
		f = f.or(ray.and(above))
	}
	return f
}

// pos10 is a 10×10 position from the side to move. pp/op mirror pos8's
// placement counters; no 10×10 mode limits them.
type pos10 struct {
	p, o   bits10
	pp, op int16
}

func playOn10(pos pos10, sq int) pos10 { return pos.after(sq, flips10(sq, pos.p, pos.o)) }

// after is the position once the side to move has played sq, flipping f.
func (pos pos10) after(sq int, f bits10) pos10 {
	return pos10{p: pos.o.andNot(f), o: pos.p.or(f).or(bit10(sq)), pp: pos.op, op: pos.pp + 1}
}

func (pos pos10) pass() pos10 { return pos10{p: pos.o, o: pos.p, pp: pos.op, op: pos.pp} }

func (pos pos10) hash() uint64 {
	h := pos.p.lo*0x9E3779B97F4A7C15 ^ bits.RotateLeft64(pos.o.lo*0xC2B2AE3D27D4EB4F, 31) ^
		bits.RotateLeft64(pos.p.hi*0x165667B19E3779F9, 17) ^ bits.RotateLeft64(pos.o.hi*0xD6E8FEB86659FD93, 47)
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// perft10 counts leaves to depth on a 10×10 board whose playable squares are
// playable (passes count as moves; a finished game is a leaf).
func perft10(pos pos10, depth int, playable bits10) uint64 {
	if depth == 0 {
		return 1
	}
	empty := playable.andNot(pos.p.or(pos.o))
	m := moves10(pos.p, pos.o, empty)
	if m.isZero() {
		if moves10(pos.o, pos.p, empty).isZero() {
			return 1
		}
		return perft10(pos.pass(), depth-1, playable)
	}
	if depth == 1 {
		return uint64(m.count())
	}
	var n uint64
	for !m.isZero() {
		n += perft10(playOn10(pos, m.pop()), depth-1, playable)
	}
	return n
}

// Board-specific searcher primitives for 10×10.

func (s *searcher10) moves(pos pos10) bits10 {
	return moves10(pos.p, pos.o, s.playable.andNot(pos.p.or(pos.o)))
}

func (s *searcher10) play(pos pos10, sq int) pos10 { return playOn10(pos, sq) }

func (s *searcher10) empties(pos pos10) int { return s.nPlay - pos.p.or(pos.o).count() }

var (
	notColA10 bits10 // every square but column a
	notColJ10 bits10 // every square but column j
)

func init() {
	for sq := range 100 {
		if sq%10 != 0 {
			notColA10 = notColA10.or(bit10(sq))
		}
		if sq%10 != 9 {
			notColJ10 = notColJ10.or(bit10(sq))
		}
	}
}

// neighbours returns the squares adjacent to b (blocked squares included;
// callers mask).
func (s *searcher10) neighbours(b bits10) bits10 {
	h := b.shl(1).and(notColA10).or(b.shr(1).and(notColJ10))
	x := b.or(h)
	return h.or(x.shl(10)).or(x.shr(10)).andNot(b)
}

// lineNeighbours returns the squares next to st along line direction d
// (0 E–W, 1 N–S, 2 NE–SW, 3 NW–SE).
func (s *searcher10) lineNeighbours(st bits10, d int) bits10 {
	switch d {
	case 0:
		return st.shl(1).and(notColA10).or(st.shr(1).and(notColJ10))
	case 1:
		return st.shl(10).or(st.shr(10))
	case 2:
		return st.shl(11).and(notColA10).or(st.shr(11).and(notColJ10))
	default:
		return st.shl(9).and(notColJ10).or(st.shr(9).and(notColA10))
	}
}
