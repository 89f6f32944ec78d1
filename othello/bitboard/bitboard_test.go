package bitboard

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// The start position: black (to move) holds d5 and e4.
const (
	startP = 1<<28 | 1<<35
	startO = 1<<27 | 1<<36
)

func TestPerft(t *testing.T) {
	want := []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216}
	if testing.Short() {
		want = want[:7]
	}
	for d, w := range want {
		if got := Perft(startP, startO, d); got != w {
			t.Errorf("perft %d = %d, want %d", d, got, w)
		}
	}
}

// refFlips flips by walking each direction square by square on a
// size×size board.
func refFlips(size, sq int, has func(p bool, sq int) bool) []int {
	var all []int
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		var run []int
		c, r := sq%size+d[0], sq/size+d[1]
		for c >= 0 && c < size && r >= 0 && r < size {
			s := r*size + c
			if has(false, s) {
				run = append(run, s)
			} else {
				if has(true, s) {
					all = append(all, run...)
				}
				break
			}
			c += d[0]
			r += d[1]
		}
	}
	return all
}

func refFlips8(sq int, p, o uint64) uint64 {
	var f uint64
	for _, s := range refFlips(8, sq, func(mine bool, s int) bool {
		if mine {
			return p>>uint(s)&1 != 0
		}
		return o>>uint(s)&1 != 0
	}) {
		f |= 1 << uint(s)
	}
	return f
}

// randomGame plays random moves from the start and returns the positions
// (mover, opponent, white to move) it went through.
func randomGame(rng *rand.Rand) (ps, os []uint64, whites []bool) {
	p, o, white := uint64(startP), uint64(startO), false
	for {
		m := Moves(p, o)
		if m == 0 {
			if Moves(o, p) == 0 {
				return
			}
			p, o, white = o, p, !white
			continue
		}
		ps, os, whites = append(ps, p), append(os, o), append(whites, white)
		for range rng.IntN(bits.OnesCount64(m)) {
			m &= m - 1
		}
		sq := bits.TrailingZeros64(m)
		f := Flips(sq, p, o)
		p, o, white = o&^f, p|f|1<<uint(sq), !white
	}
}

func TestFlipsAndMovesMatchWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		ps, os, _ := randomGame(rng)
		for i := range ps {
			p, o := ps[i], os[i]
			var moves uint64
			for sq := range 64 {
				if (p|o)>>uint(sq)&1 != 0 {
					continue
				}
				f := refFlips8(sq, p, o)
				if got := Flips(sq, p, o); got != f {
					t.Fatalf("Flips(%d) = %x, want %x", sq, got, f)
				}
				if f != 0 {
					moves |= 1 << uint(sq)
				}
			}
			if got := Moves(p, o); got != moves {
				t.Fatalf("Moves = %x, want %x", got, moves)
			}
		}
	}
}

func TestLastFlipCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		sq := rng.IntN(64)
		p := rng.Uint64() &^ (1 << uint(sq))
		o := ^p &^ (1 << uint(sq))
		if got, want := LastFlipCount(sq, p), bits.OnesCount64(refFlips8(sq, p, o)); got != want {
			t.Fatalf("LastFlipCount(%d, %x) = %d, want %d", sq, p, got, want)
		}
	}
}

// TestStableIsStable: no later move of a random game flips a disc that
// Stable reported.
func TestStableIsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range 300 {
		ps, os, ws := randomGame(rng)
		black := func(j int) uint64 {
			if ws[j] {
				return os[j]
			}
			return ps[j]
		}
		whiteDiscs := func(j int) uint64 {
			if ws[j] {
				return ps[j]
			}
			return os[j]
		}
		for i := range ps {
			st := Stable(ps[i], os[i]) // the mover's
			found += bits.OnesCount64(st)
			for j := i + 1; j < len(ps); j++ {
				own := black(j)
				if ws[i] {
					own = whiteDiscs(j)
				}
				if st&^own != 0 {
					t.Fatalf("position %d: stable discs %x flipped by move %d", i, st&^own, j)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no stable disc found in 300 games")
	}
}

// TestFullLines checks fullLines against walking each square's four
// lines to both edges, on random occupancies of every density.
func TestFullLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	steps := [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} // rows, columns, a1–h8, h1–a8
	for n := range 20000 {
		occ := ^uint64(0)
		for range n % 12 { // up to 11 empty squares
			occ &^= 1 << uint(rng.IntN(64))
		}
		got := fullLines(occ)
		for d, st := range steps {
			var want uint64
			for sq := range 64 {
				full := true
				for _, dir := range []int{1, -1} {
					x, y := sq&7, sq>>3
					for x >= 0 && x < 8 && y >= 0 && y < 8 {
						full = full && occ>>uint(8*y+x)&1 != 0
						x, y = x+dir*st[0], y+dir*st[1]
					}
				}
				if full {
					want |= 1 << uint(sq)
				}
			}
			if got[d] != want {
				t.Fatalf("occupancy %x, direction %d: full %x, want %x", occ, d, got[d], want)
			}
		}
	}
}

// BenchmarkStable finds the stable discs of the side to move in the
// positions of random games, as the endgame's stability cutoff does.
func BenchmarkStable(b *testing.B) {
	_, ps, os := flipCases()
	for b.Loop() {
		for i, p := range ps {
			sink += Stable(p, os[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/position")
}

// TestBits10MatchWalk checks Flips10 and Moves10 against the square walk
// on random 10×10 boards, with some squares blocked (in neither set, as
// octagon's are).
func TestBits10MatchWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		var p, o, blocked Bits10
		for sq := range 100 {
			switch r := rng.IntN(10); {
			case r < 4:
				p = p.Or(Bit10(sq))
			case r < 8:
				o = o.Or(Bit10(sq))
			case r < 9:
				blocked = blocked.Or(Bit10(sq))
			}
		}
		empty := Full10().AndNot(p.Or(o).Or(blocked))
		var moves Bits10
		for e := empty; !e.IsZero(); {
			sq := e.Pop()
			var want Bits10
			for _, s := range refFlips(10, sq, func(mine bool, s int) bool {
				if mine {
					return p.Has(s)
				}
				return o.Has(s)
			}) {
				want = want.Or(Bit10(s))
			}
			if got := Flips10(sq, p, o); got != want {
				t.Fatalf("Flips10(%d) = %v, want %v", sq, got, want)
			}
			if !want.IsZero() {
				moves = moves.Or(Bit10(sq))
			}
		}
		if got := Moves10(p, o, empty); got != moves {
			t.Fatalf("Moves10 = %v, want %v", got, moves)
		}
	}
}

func TestBits10Set(t *testing.T) {
	var b Bits10
	for _, sq := range []int{0, 63, 64, 99} {
		b = b.Or(Bit10(sq))
	}
	if b.Count() != 4 || !b.Has(63) || !b.Has(64) || b.Has(65) {
		t.Fatalf("set %v", b)
	}
	if got := b.Shl(1); got.Has(0) || !got.Has(1) || !got.Has(64) || !got.Has(65) || got.Count() != 3 {
		t.Errorf("Shl(1) of %v = %v (99 leaves the board)", b, got)
	}
	if got := b.Shr(1); got.Has(0) || !got.Has(62) || !got.Has(63) || !got.Has(98) || got.Count() != 3 {
		t.Errorf("Shr(1) of %v = %v (0 leaves the board)", b, got)
	}
	var popped []int
	for !b.IsZero() {
		popped = append(popped, b.Pop())
	}
	if len(popped) != 4 || popped[0] != 0 || popped[3] != 99 {
		t.Errorf("popped %v", popped)
	}
}

// BenchmarkPerft counts the std game tree to depth 6 from the start.
func BenchmarkPerft(b *testing.B) {
	for b.Loop() {
		if Perft(startP, startO, 6) != 8200 {
			b.Fatal("perft")
		}
	}
}

// flipCases are the legal moves of the positions of random games.
func flipCases() (sqs []int, ps, os []uint64) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		gp, gos, _ := randomGame(rng)
		for i := range gp {
			for m := Moves(gp[i], gos[i]); m != 0; m &= m - 1 {
				sqs, ps, os = append(sqs, bits.TrailingZeros64(m)), append(ps, gp[i]), append(os, gos[i])
			}
		}
	}
	return sqs, ps, os
}

var sink uint64

// BenchmarkFlips flips the legal moves of random games (about 100,000 a
// loop).
func BenchmarkFlips(b *testing.B) {
	sqs, ps, os := flipCases()
	for b.Loop() {
		for i, sq := range sqs {
			sink += Flips(sq, ps[i], os[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sqs)), "ns/flip")
}

// BenchmarkLastFlipCount counts the flips on the last empty square of
// random full boards.
func BenchmarkLastFlipCount(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	sqs, ps := make([]int, 10000), make([]uint64, 10000)
	for i := range sqs {
		sqs[i] = rng.IntN(64)
		ps[i] = rng.Uint64() &^ (1 << uint(sqs[i]))
	}
	for b.Loop() {
		for i, sq := range sqs {
			sink += uint64(LastFlipCount(sq, ps[i]))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sqs)), "ns/count")
}

// BenchmarkMoves generates both sides' moves in the positions of random
// games, as a leaf of the midgame search does for its mobility.
func BenchmarkMoves(b *testing.B) {
	_, ps, os := flipCases()
	for b.Loop() {
		for i, p := range ps {
			sink += Moves(p, os[i]) ^ Moves(os[i], p)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/pair")
}

// TestFlipsMatchWalkOnAnyBoard checks Flips against the walk on random
// boards, most of which no game reaches: discs in any pattern along the
// lines, edge squares included.
func TestFlipsMatchWalkOnAnyBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 200000 {
		sq := rng.IntN(64)
		p := rng.Uint64()
		o := rng.Uint64() &^ p
		p &^= 1 << uint(sq)
		o &^= 1 << uint(sq)
		if got, want := Flips(sq, p, o), refFlips8(sq, p, o); got != want {
			t.Fatalf("Flips(%d, %#x, %#x) = %#x, want %#x", sq, p, o, got, want)
		}
	}
}
