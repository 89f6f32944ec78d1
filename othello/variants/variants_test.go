package variants

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The rules of the four modes the othello package hands this package
// (othello's own tests check that it states them so).
var (
	antiRules    = Rules{Misere: true}
	reversiRules = Rules{Reversi: true, MaxPlaced: 32}
	grandRules   = Rules{}
	octagonRules = Rules{Blocked: []int{0, 1, 10, 8, 9, 19, 80, 90, 91, 89, 98, 99}}
)

// Start positions, black to move: the four centre discs (anti), an empty
// board (classic Reversi), the 10×10 centre (grand, octagon).
var (
	start8    = pos8{p: bit8(28) | bit8(35), o: bit8(27) | bit8(36)}
	start10   = pos10{p: bit10(45).Or(bit10(54)), o: bit10(44).Or(bit10(55))}
	reversi8  = pos8{}
	variants8 = []struct {
		name  string
		rules Rules
		start pos8
	}{{"anti", antiRules, start8}, {"reversi", reversiRules, reversi8}}
	variants10 = []struct {
		name  string
		rules Rules
	}{{"grand", grandRules}, {"octagon", octagonRules}}
)

// perft8 counts the leaves of the game tree to the given depth; a pass
// counts as a move, and a finished game is a leaf.
func perft8(s *Searcher8, pos pos8, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	m := s.moves(pos)
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			return 1
		}
		return perft8(s, pos.pass(), depth-1)
	}
	if depth == 1 {
		return uint64(m.Count())
	}
	var n uint64
	for !m.IsZero() {
		n += perft8(s, s.play(pos, m.Pop()), depth-1)
	}
	return n
}

func perft10(s *Searcher10, pos pos10, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	m := s.moves(pos)
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			return 1
		}
		return perft10(s, pos.pass(), depth-1)
	}
	if depth == 1 {
		return uint64(m.Count())
	}
	var n uint64
	for !m.IsZero() {
		n += perft10(s, s.play(pos, m.Pop()), depth-1)
	}
	return n
}

// TestPerft pins the move generation of each game (the figures othello's
// rules tests find with an independent implementation).
func TestPerft(t *testing.T) {
	if got := perft8(NewSearcher8(antiRules, 10), start8, 7); got != 55092 {
		t.Errorf("anti perft(7) = %d, want 55092", got)
	}
	if got := perft8(NewSearcher8(reversiRules, 10), reversi8, 9); got != 38208 {
		t.Errorf("reversi perft(9) = %d, want 38208", got)
	}
	if got := perft10(NewSearcher10(grandRules, 10), start10, 7); got != 55180 {
		t.Errorf("grand perft(7) = %d, want 55180", got)
	}
	if got := perft10(NewSearcher10(octagonRules, 10), start10, 7); got != 55136 {
		t.Errorf("octagon perft(7) = %d, want 55136", got)
	}
}

// randomPos8 plays random moves from start until empties are left.
func randomPos8(rng *rand.Rand, s *Searcher8, start pos8, empties int) pos8 {
	for {
		pos := start
		for {
			if s.empties(pos) <= empties {
				return pos
			}
			m := s.moves(pos)
			if m.IsZero() {
				if s.moves(pos.pass()).IsZero() {
					break // over too early: again
				}
				pos = pos.pass()
				continue
			}
			for range rng.IntN(m.Count()) {
				m.Pop()
			}
			pos = s.play(pos, m.Pop())
		}
	}
}

func randomPos10(rng *rand.Rand, s *Searcher10, empties int) pos10 {
	for {
		pos := start10
		for {
			if s.empties(pos) <= empties {
				return pos
			}
			m := s.moves(pos)
			if m.IsZero() {
				if s.moves(pos.pass()).IsZero() {
					break
				}
				pos = pos.pass()
				continue
			}
			for range rng.IntN(m.Count()) {
				m.Pop()
			}
			pos = s.play(pos, m.Pop())
		}
	}
}

// minimax8 and minimax10 are plain, pruning-free solvers (the reference
// for the exact solver): the final disc difference for the side to move,
// scaled, under the rules' scoring.
func minimax8(s *Searcher8, pos pos8) int {
	m := s.moves(pos)
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			d := pos.p.Count() - pos.o.Count()
			if s.rules.Misere {
				d = -d
			}
			return d * discScale
		}
		return -minimax8(s, pos.pass())
	}
	best := -infScore
	for !m.IsZero() {
		best = max(best, -minimax8(s, s.play(pos, m.Pop())))
	}
	return best
}

func minimax10(s *Searcher10, pos pos10) int {
	m := s.moves(pos)
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			d := pos.p.Count() - pos.o.Count()
			if s.rules.Misere {
				d = -d
			}
			return d * discScale
		}
		return -minimax10(s, pos.pass())
	}
	best := -infScore
	for !m.IsZero() {
		best = max(best, -minimax10(s, s.play(pos, m.Pop())))
	}
	return best
}

// checkWindows checks a fail-soft solve in the exact, fail-low and
// fail-high windows against want.
func checkWindows(t *testing.T, name string, solve func(alpha, beta int) int, want int) {
	t.Helper()
	if got := solve(-infScore, infScore); got != want {
		t.Fatalf("%s: solve %d, minimax %d", name, got, want)
	}
	if got := solve(want, want+1); got > want {
		t.Fatalf("%s: fail-low bound %d above %d", name, got, want)
	}
	if got := solve(want-1, want); got < want {
		t.Fatalf("%s: fail-high bound %d below %d", name, got, want)
	}
}

// TestSolverMatchesMinimax checks the exact solver (all windows: exact,
// fail-low and fail-high bounds) against plain minimax in every game,
// classic Reversi also with a side near its cap of placed discs.
func TestSolverMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	n := 16
	if raceEnabled || testing.Short() {
		n = 4
	}
	for _, v := range variants8 {
		s := NewSearcher8(v.rules, 12)
		for i := range n {
			empties := 2 + i*5%8 // 2–9: every solver stage (last two, small, table)
			pos := randomPos8(rng, s, v.start, empties)
			if v.rules.Reversi && i%2 == 1 {
				// Push one side near the cap: 31 placed, the other the rest.
				placed := 64 - empties
				if rng.IntN(2) == 0 {
					pos.pp, pos.op = int16(placed-31), 31
				} else {
					pos.pp, pos.op = 31, int16(placed-31)
				}
			}
			want := minimax8(s, pos)
			checkWindows(t, v.name, func(a, b int) int { return s.solve(pos, a, b, s.empties(pos)) }, want)
		}
	}
	for _, v := range variants10 {
		s := NewSearcher10(v.rules, 12)
		for i := range n {
			empties := 2 + i*5%8
			pos := randomPos10(rng, s, empties)
			want := minimax10(s, pos)
			checkWindows(t, v.name, func(a, b int) int { return s.solve(pos, a, b, s.empties(pos)) }, want)
		}
	}
}

// negamax8 is the reference for shallow pvs: full-width search to depth
// plies (a pass uses none), exact below the same empties as pvs, the
// static evaluation at the horizon.
func negamax8(s *Searcher8, pos pos8, depth int) int {
	empties := s.empties(pos)
	if depth >= empties || empties <= 2 {
		return s.solve(pos, -infScore, infScore, empties)
	}
	m := s.moves(pos)
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			return s.final(pos)
		}
		return -negamax8(s, pos.pass(), depth)
	}
	if depth <= 0 {
		return s.eval(pos, m)
	}
	best := -infScore
	for !m.IsZero() {
		best = max(best, -negamax8(s, s.play(pos, m.Pop()), depth-1))
	}
	return best
}

// TestShallowSearchMatchesNegamax checks pvs (the table, move ordering
// and the depth-1 search) against full-width negamax in the 8×8 games,
// with exact, fail-low and fail-high windows.
func TestShallowSearchMatchesNegamax(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := 12
	if raceEnabled || testing.Short() {
		n = 4
	}
	for _, v := range variants8 {
		s := NewSearcher8(v.rules, 12)
		for i := range n {
			pos := randomPos8(rng, s, v.start, 6+i*7%30)
			for depth := 1; depth <= 4; depth++ {
				want := negamax8(s, pos, depth)
				for _, w := range [][2]int{{-infScore, infScore}, {want, want + 1}, {want - 1, want}, {want - 300, want + 300}} {
					clear(s.tt)
					got := s.pvs(pos, depth, w[0], w[1])
					// Fail-soft: a fail-low result bounds the value from
					// above, a fail-high result from below.
					switch {
					case want <= w[0] && (got > w[0] || got < want),
						want >= w[1] && (got < w[1] || got > want),
						want > w[0] && want < w[1] && got != want:
						t.Fatalf("%s #%d depth %d window %v: pvs %d, negamax %d", v.name, i, depth, w, got, want)
					}
				}
			}
		}
	}
}

// TestSearchSolves: a search allowed to solve reports the exact minimax
// value and a best move, through the exported Search of both sizes.
func TestSearchSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	lim := Limits{MaxDepth: 64, ExactEmpties: 64}
	for _, v := range variants8 {
		s := NewSearcher8(v.rules, 14)
		for range 3 {
			pos := randomPos8(rng, s, v.start, 8)
			var legal []int
			for m := s.moves(pos); !m.IsZero(); {
				legal = append(legal, m.Pop())
			}
			if len(legal) == 0 {
				continue
			}
			want := minimax8(s, pos)
			r := s.Search(context.Background(), uint64(pos.p), uint64(pos.o), int(pos.pp), int(pos.op), legal, lim)
			if !r.Exact || r.Score != float64(want)/discScale || !slices.Contains(legal, r.Move) {
				t.Fatalf("%s: %+v, minimax %d", v.name, r, want/discScale)
			}
			if got := -minimax8(s, s.play(pos, r.Move)); got != want {
				t.Fatalf("%s: move %d scores %d, best %d", v.name, r.Move, got, want)
			}
		}
	}
	for _, v := range variants10 {
		s := NewSearcher10(v.rules, 14)
		for range 3 {
			pos := randomPos10(rng, s, 8)
			var legal []int
			for m := s.moves(pos); !m.IsZero(); {
				legal = append(legal, m.Pop())
			}
			if len(legal) == 0 {
				continue
			}
			want := minimax10(s, pos)
			r := s.Search(context.Background(), pos.p, pos.o, legal, lim)
			if !r.Exact || r.Score != float64(want)/discScale || !slices.Contains(legal, r.Move) {
				t.Fatalf("%s: %+v, minimax %d", v.name, r, want/discScale)
			}
		}
	}
}

// TestSetRulesKeepsTable: the table survives a search of the same game
// and is cleared for another one (scores of one game mean nothing in
// another), however the caller built the rules.
func TestSetRulesKeepsTable(t *testing.T) {
	s := NewSearcher10(octagonRules, 10)
	pos := start10
	s.Search(context.Background(), pos.p, pos.o, []int{34, 43, 56, 65}, Limits{MaxDepth: 4})
	used := func() bool { return slices.ContainsFunc(s.tt, func(e ttEntry10) bool { return e.depth > 0 }) }
	if !used() {
		t.Fatal("the search left the table empty")
	}
	s.SetRules(Rules{Blocked: slices.Clone(octagonRules.Blocked)})
	if !used() {
		t.Fatal("the same rules cleared the table")
	}
	s.SetRules(grandRules)
	if used() {
		t.Fatal("other rules kept the table")
	}
}

// TestSearchCancelled: a cancelled context or a past deadline still
// yields one of the moves.
func TestSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewSearcher8(antiRules, 12)
	legal := []int{19, 26, 37, 44}
	if r := s.Search(ctx, uint64(start8.p), uint64(start8.o), 2, 2, legal, Limits{MaxDepth: 20}); !slices.Contains(legal, r.Move) {
		t.Errorf("cancelled: move %d", r.Move)
	}
	if r := s.Search(context.Background(), uint64(start8.p), uint64(start8.o), 2, 2, legal, Limits{MaxDepth: 20, Deadline: time.Unix(1, 0)}); !slices.Contains(legal, r.Move) {
		t.Errorf("past deadline: move %d", r.Move)
	}
}
