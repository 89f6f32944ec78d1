package openings

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/stdengine"
)

// TestSymmetries: the four first moves of Othello are one position up to
// symmetry, each image is a board of the same discs, and the eight
// images are distinct for a position with no symmetry.
func TestSymmetries(t *testing.T) {
	var keys [][2]uint64
	for _, m := range []string{"d3", "c4", "f5", "e6"} {
		st := othello.NewState(othello.Std)
		sq, _ := othello.ParseSquare(m, 8)
		st.Play(sq)
		p, o := st.Bitboards()
		keys = append(keys, canonical(p, o))
	}
	for _, k := range keys[1:] {
		if k != keys[0] {
			t.Fatalf("the first moves differ up to symmetry: %x", keys)
		}
	}
	b := uint64(1<<0 | 1<<1 | 1<<10 | 1<<63) // a1, b1, c2, h8: no symmetry
	seen := map[uint64]bool{}
	for i := range 8 {
		s := symmetry(b, i)
		if popcount(s) != 4 || seen[s] {
			t.Fatalf("image %d: %x", i, s)
		}
		seen[s] = true
		if symmetry(symmetry(b, 4), 4) != b {
			t.Fatal("transposing twice is not the identity")
		}
	}
}

func popcount(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// TestEmbedded: every embedded opening plays 8 legal moves, and the list
// reads back as it is written.
func TestEmbedded(t *testing.T) {
	l := XOT()
	if len(l) < 100 {
		t.Fatalf("%d openings", len(l))
	}
	for i, m := range l {
		if len(m) != 8 {
			t.Fatalf("opening %d has %d moves", i, len(m))
		}
	}
	back, err := Parse(Format(l))
	if err != nil || len(back) != len(l) {
		t.Fatalf("round trip: %d, %v", len(back), err)
	}
	// Each caller has a copy of its own: a change to one is no other's.
	l[0][0], l[1] = -1, nil
	if again := XOT(); again[0][0] == -1 || again[1] == nil {
		t.Fatal("XOT handed out the list itself")
	}
	for _, bad := range []string{"f5d6c", "a1", "f5f5"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}

// TestGenerate: the openings kept are balanced by the search that judged
// them and distinct up to symmetry.
func TestGenerate(t *testing.T) {
	s := stdengine.NewSearcher(stdengine.Embedded(), 14)
	l := Generate(context.Background(), s, rand.New(rand.NewPCG(1, 2)), Options{N: 5, Plies: 8, Depth: 4, MaxAbs: 2}, nil)
	if len(l) != 5 {
		t.Fatalf("%d openings", len(l))
	}
	keys := map[[2]uint64]bool{}
	for _, moves := range l {
		st := othello.NewState(othello.Std)
		for _, sq := range moves {
			if err := st.Play(sq); err != nil {
				t.Fatal(err)
			}
		}
		p, o := st.Bitboards()
		s.Clear()
		r := s.Search(context.Background(), p, o, st.Turn == othello.White, st.LegalMoves(), stdengine.Limits{MaxDepth: 4, MidgameSel: 2})
		if r.Score > 2 || r.Score < -2 {
			t.Fatalf("kept an opening scored %d", r.Score)
		}
		k := canonical(p, o)
		if keys[k] {
			t.Fatal("two openings of one position")
		}
		keys[k] = true
	}
}
