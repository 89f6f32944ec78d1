package othello

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// naive is an independent array-based rules implementation the bitboards
// are checked against.
type naive struct {
	mode   Mode
	size   int
	cells  []int8 // 0 empty, 1 black, 2 white, 3 blocked
	turn   int
	placed [2]int
}

func newNaive(s *State) *naive {
	n := &naive{mode: s.Mode, size: s.Mode.Size(), cells: append([]int8(nil), s.Cells...), turn: s.Turn, placed: s.Placed}
	for _, b := range s.Mode.Blocked() {
		n.cells[b] = 3
	}
	return n
}

var naiveDirs = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

func (n *naive) flips(sq int) []int {
	var out []int
	me, opp := int8(n.turn), int8(3-n.turn)
	for _, d := range naiveDirs {
		var run []int
		c, r := sq%n.size+d[0], sq/n.size+d[1]
		for c >= 0 && c < n.size && r >= 0 && r < n.size && n.cells[r*n.size+c] == opp {
			run = append(run, r*n.size+c)
			c, r = c+d[0], r+d[1]
		}
		if len(run) > 0 && c >= 0 && c < n.size && r >= 0 && r < n.size && n.cells[r*n.size+c] == me {
			out = append(out, run...)
		}
	}
	return out
}

func (n *naive) centrePhase() bool {
	if n.mode != Reversi {
		return false
	}
	for _, c := range []int{27, 28, 35, 36} {
		if n.cells[c] == 0 {
			return true
		}
	}
	return false
}

func (n *naive) legal() []int {
	var out []int
	if n.mode == Reversi && n.placed[n.turn-1] >= 32 {
		return nil
	}
	centre := n.centrePhase()
	for sq, c := range n.cells {
		if c != 0 {
			continue
		}
		if centre {
			if sq == 27 || sq == 28 || sq == 35 || sq == 36 {
				out = append(out, sq)
			}
			continue
		}
		if len(n.flips(sq)) > 0 {
			out = append(out, sq)
		}
	}
	return out
}

func (n *naive) play(sq int) {
	if !n.centrePhase() {
		for _, f := range n.flips(sq) {
			n.cells[f] = int8(n.turn)
		}
	}
	n.cells[sq] = int8(n.turn)
	n.placed[n.turn-1]++
	n.turn = 3 - n.turn
}

func (n *naive) equal(s *State) bool {
	for i, c := range n.cells {
		want := c
		if want == 3 {
			want = 0
		}
		if s.Cells[i] != want {
			return false
		}
	}
	return n.turn == s.Turn && n.placed == s.Placed
}

// naivePerft is perft on the naive implementation, with the same
// conventions (pass is a move, a finished game is a leaf).
func naivePerft(n *naive, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := n.legal()
	if len(moves) == 0 {
		n.turn = 3 - n.turn
		defer func() { n.turn = 3 - n.turn }()
		if len(n.legal()) == 0 {
			return 1
		}
		return naivePerft(n, depth-1)
	}
	var total uint64
	for _, m := range moves {
		c := &naive{mode: n.mode, size: n.size, cells: append([]int8(nil), n.cells...), turn: n.turn, placed: n.placed}
		c.play(m)
		total += naivePerft(c, depth-1)
	}
	return total
}

// statePerft is perft on State, with the same conventions.
func statePerft(s *State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := s.LegalMoves()
	if len(moves) == 0 {
		if s.Over() {
			return 1
		}
		c := s.Clone()
		_ = c.Play(Pass)
		return statePerft(c, depth-1)
	}
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := s.Clone()
		c.apply(m)
		n += statePerft(c, depth-1)
	}
	return n
}

func TestPerftAllModesAgainstNaive(t *testing.T) {
	// Fixed figures (computed by both implementations, pinned so a change
	// to either shows up) for the initial positions of every mode; the
	// generic searcher's move generation pins the same figures
	// (othello/variants TestPerft).
	tests := []struct {
		mode  Mode
		depth int
		want  uint64
	}{
		{Std, 7, 55092},
		{Anti, 7, 55092},
		{Grand, 7, 55180},
		{Octagon, 7, 55136},
		{Reversi, 9, 38208},
	}
	for _, tc := range tests {
		s := NewState(tc.mode)
		got := statePerft(s, tc.depth)
		ref := naivePerft(newNaive(s), tc.depth)
		if got != ref {
			t.Errorf("%v perft(%d): bitboard %d, naive %d", tc.mode, tc.depth, got, ref)
		}
		if got != tc.want {
			t.Errorf("%v perft(%d) = %d, want %d", tc.mode, tc.depth, got, tc.want)
		}
	}
}

// TestRandomGamesAgainstNaive plays random games in every mode and checks
// legal moves, flips, passes and the end against the naive rules, including
// perft from random mid-game positions.
func TestRandomGamesAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	games := 60
	if testing.Short() {
		games = 15
	}
	for _, mode := range Modes() {
		for g := range games {
			s := NewState(mode)
			n := newNaive(s)
			for ply := 0; ; ply++ {
				got, want := s.LegalMoves(), n.legal()
				if !slices.Equal(got, want) {
					t.Fatalf("%v game %d ply %d: legal %v, naive %v", mode, g, ply, got, want)
				}
				if ply%17 == 5 && g%10 == 0 {
					if a, b := statePerft(s, 3), naivePerft(newNaiveFrom(n), 3); a != b {
						t.Fatalf("%v game %d ply %d: perft(3) %d, naive %d", mode, g, ply, a, b)
					}
				}
				if len(got) == 0 {
					if s.Over() {
						break
					}
					if err := s.Play(Pass); err != nil {
						t.Fatal(err)
					}
					n.turn = 3 - n.turn
					continue
				}
				m := got[rng.IntN(len(got))]
				if err := s.Play(m); err != nil {
					t.Fatal(err)
				}
				n.play(m)
				if !n.equal(s) {
					t.Fatalf("%v game %d ply %d: boards differ after %d", mode, g, ply, m)
				}
			}
		}
	}
}

func newNaiveFrom(n *naive) *naive {
	return &naive{mode: n.mode, size: n.size, cells: append([]int8(nil), n.cells...), turn: n.turn, placed: n.placed}
}

func TestPlayRejectsIllegal(t *testing.T) {
	s := NewState(Std)
	for _, sq := range []int{0, 27, 18, 63} {
		if err := s.Play(sq); err == nil {
			t.Errorf("Play(%d) from the start succeeded", sq)
		}
	}
	if err := s.Play(Pass); err == nil {
		t.Error("pass with legal moves succeeded")
	}
	o := NewState(Octagon)
	for _, sq := range octagonBlocked {
		if slices.Contains(o.LegalMoves(), sq) {
			t.Errorf("blocked square %d legal", sq)
		}
	}
}

// TestSpecOpening replays the documents' example opening: from the std start
// [19,20,29,34,26,11,43,37] gives Black [2,3,12,25,42,44,45] with discs 3/9;
// after Black 44 White has [18,21,22,25,30,33,38,42,50,51,52], discs 5/8,
// placed 5/4. The same opening shifted one row and column on 10×10 gives
// [13,14,25,42,63,65,66] in grand and octagon.
func TestSpecOpening(t *testing.T) {
	opening := []int{19, 20, 29, 34, 26, 11, 43, 37}
	s := NewState(Std)
	for _, m := range opening {
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := s.LegalMoves(), []int{2, 3, 12, 25, 42, 44, 45}; !slices.Equal(got, want) {
		t.Errorf("black legal %v, want %v", got, want)
	}
	if b, w := s.Discs(); b != 3 || w != 9 {
		t.Errorf("discs %d/%d, want 3/9", b, w)
	}
	if s.Placed != [2]int{4, 4} {
		t.Errorf("placed %v, want 4/4", s.Placed)
	}
	if err := s.Play(44); err != nil {
		t.Fatal(err)
	}
	if got, want := s.LegalMoves(), []int{18, 21, 22, 25, 30, 33, 38, 42, 50, 51, 52}; !slices.Equal(got, want) {
		t.Errorf("white legal %v, want %v", got, want)
	}
	if b, w := s.Discs(); b != 5 || w != 8 {
		t.Errorf("discs %d/%d, want 5/8", b, w)
	}
	if s.Placed != [2]int{5, 4} {
		t.Errorf("placed %v, want 5/4", s.Placed)
	}
	for _, mode := range []Mode{Grand, Octagon} {
		s := NewState(mode)
		for _, m := range opening {
			if err := s.Play(m + m/8*2 + 11); err != nil {
				t.Fatalf("%v: %v", mode, err)
			}
		}
		if got, want := s.LegalMoves(), []int{13, 14, 25, 42, 63, 65, 66}; !slices.Equal(got, want) {
			t.Errorf("%v legal %v, want %v", mode, got, want)
		}
	}
}

func TestReversiRules(t *testing.T) {
	s := NewState(Reversi)
	if got := s.LegalMoves(); !slices.Equal(got, []int{27, 28, 35, 36}) {
		t.Fatalf("centre phase legal %v", got)
	}
	// Centre placements flip nothing, even when a line would be closed.
	for _, m := range []int{27, 28, 36, 35} {
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if s.Cells[27] != Black || s.Cells[28] != White || s.Cells[36] != Black || s.Cells[35] != White {
		t.Fatalf("centre placements flipped: %v", s.Cells[24:40])
	}
	if got := s.LegalMoves(); len(got) == 0 || slices.Contains(got, 0) {
		t.Fatalf("post-centre legal %v", got)
	}
	// A colour that has placed 32 discs has no move and must pass.
	s.Placed = [2]int{32, 10}
	if got := s.LegalMoves(); len(got) != 0 {
		t.Fatalf("black at 32 placed has moves %v", got)
	}
	if s.Over() {
		t.Fatal("game over although white can move")
	}
	if err := s.Play(Pass); err != nil {
		t.Fatal(err)
	}
}

func TestCoordinates(t *testing.T) {
	tests := []struct {
		in   string
		size int
		want int
		ok   bool
	}{
		{"a1", 8, 0, true}, {"h1", 8, 7, true}, {"a2", 8, 8, true}, {"h8", 8, 63, true},
		{"d3", 8, 19, true}, {"D3", 8, 19, true}, {"d3", 10, 23, true},
		{"j10", 10, 99, true}, {"J0", 10, 99, true}, {"j1", 10, 9, true}, {"a10", 10, 90, true},
		{"i1", 8, 0, false}, {"a9", 8, 0, false}, {"a0", 8, 0, false}, {"k1", 10, 0, false},
		{"a11", 10, 0, false}, {"a01", 10, 0, false}, {"", 8, 0, false}, {"d", 8, 0, false}, {"a+1", 8, 0, false},
	}
	for _, tc := range tests {
		got, err := ParseSquare(tc.in, tc.size)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseSquare(%q,%d) = %d, %v; want %d ok=%v", tc.in, tc.size, got, err, tc.want, tc.ok)
		}
		if tc.ok && tc.in == SquareName(tc.want, tc.size) {
			continue
		}
	}
	for size := 8; size <= 10; size += 2 {
		for sq := range size * size {
			if got, err := ParseSquare(SquareName(sq, size), size); err != nil || got != sq {
				t.Errorf("round trip %d on %d: %d %v", sq, size, got, err)
			}
		}
	}
	for _, p := range []string{"pass", "PA", "ps", "--", "-1"} {
		if got, err := ParseMove(p, 8); err != nil || got != Pass {
			t.Errorf("ParseMove(%q) = %d, %v", p, got, err)
		}
	}
	if _, err := ParseMove("64", 8); err == nil {
		t.Error("ParseMove(64) on 8x8 accepted")
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"d3", "J0", "j10", "pass", "-1", "64", "a01", "PA", "--", " c4 "} {
		f.Add(s, 8)
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		if size != 8 && size != 10 {
			return
		}
		m, err := ParseMove(s, size)
		if err != nil {
			return
		}
		if m < -1 || m >= size*size {
			t.Fatalf("ParseMove(%q, %d) = %d outside the board", s, size, m)
		}
		if m >= 0 {
			if back, err := ParseSquare(SquareName(m, size), size); err != nil || back != m {
				t.Fatalf("round trip of %d: %d %v", m, back, err)
			}
		}
	})
}
