// Package openings holds the XOT-style starts: std openings of 8 moves
// from the initial position whose outcome our std engine scores within a
// disc of even, so that a match from them measures play, not the luck of
// a random start. XOT is Matthias Berg's list of such openings; this list
// is our own, made the same way (random 8-move openings kept when a deep
// search scores them balanced) by Generate with our engine, no other.
package openings

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/stdengine"
)

//go:embed xot.txt
var xotText []byte

// xot is the embedded list, read once; XOT hands out copies.
var xot = sync.OnceValue(func() [][]int {
	l, err := Parse(xotText)
	if err != nil {
		panic("openings: the embedded list does not read: " + err.Error())
	}
	return l
})

// XOT returns the embedded openings, each 8 squares from the initial std
// position (a1 = 0): a copy of its own for each caller, which may change
// it.
func XOT() [][]int {
	l := xot()
	out := make([][]int, len(l))
	for i, o := range l {
		out[i] = slices.Clone(o)
	}
	return out
}

// Parse reads a list: one opening a line, its moves written together
// ("f5d6c3d3c4f4f6f3"); blank lines and lines from # on are skipped.
// Every opening must play from the initial std position.
func Parse(b []byte) ([][]int, error) {
	var out [][]int
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		if len(line)%2 != 0 {
			return nil, fmt.Errorf("line %d: %q is not a list of squares", n, line)
		}
		st := othello.NewState(othello.Std)
		var moves []int
		for i := 0; i < len(line); i += 2 {
			sq, err := othello.ParseSquare(line[i:i+2], 8)
			if err == nil {
				err = st.Play(sq)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d, move %d: %w", n, i/2+1, err)
			}
			moves = append(moves, sq)
		}
		out = append(out, moves)
	}
	return out, sc.Err()
}

// Format writes openings as Parse reads them.
func Format(list [][]int) []byte {
	var b bytes.Buffer
	for _, moves := range list {
		for _, sq := range moves {
			b.WriteString(othello.SquareName(sq, 8))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Options make a list.
type Options struct {
	N      int // openings wanted
	Plies  int // moves of an opening (8)
	Depth  int // the search that judges one
	MaxAbs int // kept when |score| ≤ MaxAbs discs
}

// Generate draws random openings of opt.Plies moves, keeps those the
// searcher scores within opt.MaxAbs discs at opt.Depth, one per position
// up to the board's symmetries, until it has opt.N (or ctx ends). It
// calls progress, when not nil, after each opening kept.
func Generate(ctx context.Context, s *stdengine.Searcher, rng *rand.Rand, opt Options, progress func(kept, tried int)) [][]int {
	seen := map[[2]uint64]bool{}
	var out [][]int
	for tried := 0; len(out) < opt.N && ctx.Err() == nil; tried++ {
		st := othello.NewState(othello.Std)
		var moves []int
		for len(moves) < opt.Plies {
			legal := st.LegalMoves()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			st.Play(m)
			moves = append(moves, m)
		}
		p, o := st.Bitboards()
		legal := st.LegalMoves()
		if len(moves) < opt.Plies || len(legal) == 0 {
			continue
		}
		key := canonical(p, o)
		if seen[key] {
			continue
		}
		seen[key] = true
		s.Clear()
		r := s.Search(ctx, p, o, st.Turn == othello.White, legal, stdengine.Limits{MaxDepth: opt.Depth, MidgameSel: 2})
		if ctx.Err() != nil || r.Score > opt.MaxAbs || r.Score < -opt.MaxAbs {
			continue
		}
		out = append(out, moves)
		if progress != nil {
			progress(len(out), tried+1)
		}
	}
	return out
}

// canonical is the least of a position's 8 symmetric images, so that
// openings reaching mirror positions count once.
func canonical(p, o uint64) [2]uint64 {
	best := [2]uint64{p, o}
	for i := 1; i < 8; i++ {
		q := [2]uint64{symmetry(p, i), symmetry(o, i)}
		if q[0] < best[0] || q[0] == best[0] && q[1] < best[1] {
			best = q
		}
	}
	return best
}

// symmetry is image i (1 … 7) of a board under the square's symmetries:
// bit 0 flips top to bottom, bit 1 left to right, bit 2 transposes.
func symmetry(b uint64, i int) uint64 {
	if i&4 != 0 {
		b = transpose(b)
	}
	if i&1 != 0 {
		b = bits.ReverseBytes64(b)
	}
	if i&2 != 0 {
		b = mirrorH(b)
	}
	return b
}

func mirrorH(b uint64) uint64 {
	const k1, k2, k4 = 0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f
	b = b>>1&k1 | b&k1<<1
	b = b>>2&k2 | b&k2<<2
	return b>>4&k4 | b&k4<<4
}

// transpose reflects a board in its a1–h8 diagonal.
func transpose(x uint64) uint64 {
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
	t := k4 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = k2 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = k1 & (x ^ x<<7)
	return x ^ t ^ t>>7
}
