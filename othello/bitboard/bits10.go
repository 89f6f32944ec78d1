package bitboard

import "math/bits"

// Bits10 is a set of squares of a 10×10 board: squares 0–63 in Lo, 64–99
// in the low 36 bits of Hi.
type Bits10 struct{ Lo, Hi uint64 }

const hiMask10 = 1<<36 - 1

// Full10 is every square of a 10×10 board.
func Full10() Bits10 { return Bits10{^uint64(0), hiMask10} }

// Bit10 is the set holding square sq alone.
func Bit10(sq int) Bits10 {
	if sq < 64 {
		return Bits10{Lo: 1 << uint(sq)}
	}
	return Bits10{Hi: 1 << uint(sq-64)}
}

// Count is the number of squares in b.
func (b Bits10) Count() int { return bits.OnesCount64(b.Lo) + bits.OnesCount64(b.Hi) }

// IsZero reports whether b is empty.
func (b Bits10) IsZero() bool { return b.Lo|b.Hi == 0 }

// Has reports whether sq is in b.
func (b Bits10) Has(sq int) bool {
	if sq < 64 {
		return b.Lo>>uint(sq)&1 != 0
	}
	return b.Hi>>uint(sq-64)&1 != 0
}

// Pop removes and returns the lowest square of a non-empty set.
func (b *Bits10) Pop() int {
	if b.Lo != 0 {
		sq := bits.TrailingZeros64(b.Lo)
		b.Lo &= b.Lo - 1
		return sq
	}
	sq := bits.TrailingZeros64(b.Hi)
	b.Hi &= b.Hi - 1
	return sq + 64
}

// Or is the union of b and c.
func (b Bits10) Or(c Bits10) Bits10 { return Bits10{b.Lo | c.Lo, b.Hi | c.Hi} }

// And is the intersection of b and c.
func (b Bits10) And(c Bits10) Bits10 { return Bits10{b.Lo & c.Lo, b.Hi & c.Hi} }

// AndNot is b without the squares of c.
func (b Bits10) AndNot(c Bits10) Bits10 { return Bits10{b.Lo &^ c.Lo, b.Hi &^ c.Hi} }

// Shl moves every square n places up (0 < n < 64), dropping those that
// leave the board.
func (b Bits10) Shl(n uint) Bits10 {
	return Bits10{b.Lo << n, (b.Hi<<n | b.Lo>>(64-n)) & hiMask10}
}

// Shr moves every square n places down (0 < n < 64).
func (b Bits10) Shr(n uint) Bits10 {
	return Bits10{b.Lo>>n | b.Hi<<(64-n), b.Hi >> n}
}

// inner10 is every square of columns b–i (a line sliding east or west
// stops at the edge columns).
var inner10 Bits10

// Moves10 returns the legal moves of p against o on the squares of empty.
func Moves10(p, o, empty Bits10) Bits10 {
	var m Bits10
	mi := o.And(inner10)
	for _, d := range [4]uint{1, 9, 10, 11} {
		mask := mi
		if d == 10 {
			mask = o
		}
		x := p.Shl(d).And(mask)
		y := p.Shr(d).And(mask)
		for range 7 {
			x = x.Or(x.Shl(d).And(mask))
			y = y.Or(y.Shr(d).And(mask))
		}
		m = m.Or(x.Shl(d)).Or(y.Shr(d))
	}
	return m.And(empty)
}

// rays10[sq][d]: squares from sq (exclusive) to the edge in direction d;
// directions 0–3 increase the index, 4–7 decrease it.
var rays10 [100][8]Bits10

func init() {
	for sq := range 100 {
		if c := sq % 10; c > 0 && c < 9 {
			inner10 = inner10.Or(Bit10(sq))
		}
	}
	dirs := [8][2]int{{1, 0}, {-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, -1}, {0, -1}, {-1, -1}}
	for sq := range 100 {
		for d, v := range dirs {
			c, r := sq%10+v[0], sq/10+v[1]
			for c >= 0 && c < 10 && r >= 0 && r < 10 {
				rays10[sq][d] = rays10[sq][d].Or(Bit10(r*10 + c))
				c += v[0]
				r += v[1]
			}
		}
	}
}

// Flips10 returns the discs of o that p flips by playing on the empty
// square sq. Blocked squares are in neither p nor o, so lines stop at them.
func Flips10(sq int, p, o Bits10) Bits10 {
	var f Bits10
	r := &rays10[sq]
	for d := range 4 {
		ray := r[d]
		x := ray.AndNot(o)
		var below Bits10 // squares below the first non-opponent square
		switch {
		case x.Lo != 0:
			first := x.Lo & -x.Lo
			if first&p.Lo == 0 {
				continue
			}
			below = Bits10{Lo: first - 1}
		case x.Hi != 0:
			first := x.Hi & -x.Hi
			if first&p.Hi == 0 {
				continue
			}
			below = Bits10{Lo: ^uint64(0), Hi: first - 1}
		default:
			continue
		}
		f = f.Or(ray.And(below))
	}
	for d := 4; d < 8; d++ {
		ray := r[d]
		x := ray.AndNot(o)
		var above Bits10 // squares above the first non-opponent square
		switch {
		case x.Hi != 0:
			first := uint64(1) << uint(63-bits.LeadingZeros64(x.Hi))
			if first&p.Hi == 0 {
				continue
			}
			above = Bits10{Hi: ^(first<<1 - 1)}
		case x.Lo != 0:
			first := uint64(1) << uint(63-bits.LeadingZeros64(x.Lo))
			if first&p.Lo == 0 {
				continue
			}
			above = Bits10{Lo: ^(first<<1 - 1), Hi: ^uint64(0)}
		default:
			continue
		}
		f = f.Or(ray.And(above))
	}
	return f
}
