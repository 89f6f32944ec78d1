package othello

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello/std"
)

// minimax is a plain, pruning-free solver on State (the reference for the
// exact solver): final disc difference for the side to move under the
// mode's scoring.
func minimax(s *State) int {
	moves := s.LegalMoves()
	if len(moves) == 0 {
		if s.Over() {
			b, w := s.Discs()
			d := b - w
			if s.Turn == White {
				d = -d
			}
			if s.Mode == Anti {
				d = -d
			}
			return d
		}
		c := s.Clone()
		_ = c.Play(Pass)
		return -minimax(c)
	}
	best := -1000
	for _, m := range moves {
		c := s.Clone()
		c.apply(m)
		best = max(best, -minimax(c))
	}
	return best
}

// randomPosition plays random moves from the start until empties are left
// (reversi from a 12-disc start, with random placed counts near the limit
// sometimes, so the 32-disc rule shows up in the last moves).
func randomPosition(rng *rand.Rand, mode Mode, empties int) *State {
	for {
		s := NewState(mode)
		for {
			left := mode.PlayableSquares()
			b, w := s.Discs()
			left -= b + w
			if left <= empties {
				return s
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				if s.Over() {
					break
				}
				_ = s.Play(Pass)
				continue
			}
			s.apply(moves[rng.IntN(len(moves))])
		}
	}
}

func searcherFor(s *State) (res func(alpha, beta int) int) {
	if s.Mode.Size() == 8 {
		sr := newSearcher8(s.Mode, 12)
		p, o := s.masks8()
		pos := pos8{p: p, o: o, pp: s.placedOf(s.Turn), op: s.placedOf(3 - s.Turn)}
		return func(a, b int) int { return sr.solve(pos, a, b, sr.empties(pos)) }
	}
	sr := newSearcher10(s.Mode, 12)
	p, o := s.masks10()
	pos := pos10{p: p, o: o}
	return func(a, b int) int { return sr.solve(pos, a, b, sr.empties(pos)) }
}

// TestSolverMatchesMinimax checks the exact solver (all windows: exact,
// fail-low and fail-high bounds) against plain minimax in every mode.
func TestSolverMatchesMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	n := 16
	if raceEnabled || testing.Short() {
		n = 4
	}
	for _, mode := range Modes {
		for i := range n {
			empties := 2 + i*5%8 // 2–9: every solver stage (last two, small, table), short runs too
			s := randomPosition(rng, mode, empties)
			if mode == Reversi && i%2 == 1 {
				// Push white near the placement limit.
				b, w := s.Discs()
				s.Placed = [2]int{b + w - 31, 31}
			}
			want := minimax(s.Clone()) * discScale
			solve := searcherFor(s)
			if got := solve(-infScore, infScore); got != want {
				t.Fatalf("%v #%d (%d empties, placed %v): solve %d, minimax %d", mode, i, empties, s.Placed, got, want)
			}
			// Fail-soft bounds must hold on both sides.
			if got := solve(want, want+1); got > want {
				t.Fatalf("%v #%d: fail-low bound %d above %d", mode, i, got, want)
			}
			if got := solve(want-1, want); got < want {
				t.Fatalf("%v #%d: fail-high bound %d below %d", mode, i, got, want)
			}
		}
	}
}

// TestEngineSolvesExactly checks that the root search reports the exact
// minimax value and a best move when the position is solvable.
func TestEngineSolvesExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	e := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 64, SolveAt: 64})
	for _, mode := range Modes {
		for i := range 3 {
			s := randomPosition(rng, mode, 8)
			legal := s.LegalMoves()
			if len(legal) == 0 {
				continue
			}
			want := minimax(s.Clone())
			d := e.Choose(context.Background(), &Position{State: s, Legal: legal, RemainingMs: 60000, BudgetMs: 10000})
			if !d.Exact || int(d.Score) != want {
				t.Fatalf("%v #%d: score %v exact %v, minimax %d", mode, i, d.Score, d.Exact, want)
			}
			c := s.Clone()
			c.apply(d.Move)
			if got := -minimax(c); got != want {
				t.Fatalf("%v #%d: move %d scores %d, best %d", mode, i, d.Move, got, want)
			}
		}
	}
}

// TestEngineGamesLegal plays fast engine-vs-random games in every mode and
// checks every answer is legal (and a pass exactly when there is no move).
func TestEngineGamesLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	e := NewEngine(EngineOptions{TTBits: 14, FixedTime: 2 * time.Millisecond})
	games := 2
	for _, mode := range Modes {
		for g := range games {
			s := NewState(mode)
			engineColor := Black + g%2
			for !s.Over() {
				legal := s.LegalMoves()
				var m int
				if s.Turn == engineColor {
					d := e.Choose(context.Background(), &Position{State: s.Clone(), Legal: legal, RemainingMs: 60000, BudgetMs: 10000})
					m = d.Move
					if len(legal) == 0 && m != Pass || len(legal) > 0 && !slices.Contains(legal, m) {
						t.Fatalf("%v: engine answered %d, legal %v", mode, m, legal)
					}
				} else if len(legal) == 0 {
					m = Pass
				} else {
					m = legal[rng.IntN(len(legal))]
				}
				if err := s.Play(m); err != nil {
					t.Fatalf("%v: %v", mode, err)
				}
			}
		}
	}
}

// TestTimePlan checks the time allocation stays inside the clock and the
// budget in extreme cases.
func TestTimePlan(t *testing.T) {
	e := NewEngine(EngineOptions{})
	tests := []struct {
		rem, budget int64
		empties     int
	}{
		{60000, 10000, 52}, {60000, 10000, 20}, {3000, 2250, 30}, {800, 50, 10},
		{100, 0, 10}, {-5, -755, 10}, {300000, 300000, 60}, {60000, 0, 52},
	}
	for _, tc := range tests {
		s := NewState(Std)
		for i := range s.Cells[:64-tc.empties] {
			s.Cells[i] = Black
		}
		soft, hard := e.timePlan(&Position{State: s, RemainingMs: tc.rem, BudgetMs: tc.budget}, overheadMs)
		if soft > hard || hard < minThinkMs*time.Millisecond {
			t.Errorf("%+v: soft %v hard %v", tc, soft, hard)
		}
		if lim := time.Duration(max(tc.budget/2, minThinkMs)) * time.Millisecond; tc.budget > 0 && hard > lim {
			t.Errorf("%+v: hard %v above half the budget", tc, hard)
		}
		// A quarter of the clock at most, two thirds once a solve is in reach.
		num, den := int64(1), int64(4)
		if tc.empties <= solveZone(8) {
			num, den = 2, 3
		}
		if lim := time.Duration(max(tc.rem*num/den, minThinkMs)) * time.Millisecond; hard > lim {
			t.Errorf("%+v: hard %v above %d/%d of the clock", tc, hard, num, den)
		}
	}
	// At 60 s clocks the first solvable positions get more than the
	// quarter: what is typically left at 24 empties (11 s) solves from
	// there, and 8 s at 22 empties (after a solve that did not finish)
	// still solve from 22.
	for _, tc := range []struct {
		rem           int64
		empties, want int
	}{{11000, 24, 24}, {8000, 22, 22}} {
		s := NewState(Std)
		for i := range s.Cells[:64-tc.empties] {
			s.Cells[i] = Black
		}
		_, hard := e.timePlan(&Position{State: s, RemainingMs: tc.rem, BudgetMs: 10000}, overheadMs)
		if got := exactEmptiesFor(hard, 8); got < tc.want {
			t.Errorf("%d ms left at %d empties: hard %v solves from %d empties", tc.rem, tc.empties, hard, got)
		}
	}
}

// BenchmarkMidgameNodes measures search speed on a std midgame position
// (fixed depth, cold table).
func BenchmarkMidgameNodes(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	s := randomPosition(rng, Std, 40)
	p, o := s.masks8()
	pos := pos8{p: p, o: o}
	sr := newSearcher8(Std, 18)
	var legal []int
	for m := sr.moves(pos); !m.isZero(); {
		legal = append(legal, m.pop())
	}
	var nodes uint64
	cpu0 := cpuTime()
	for b.Loop() {
		clear(sr.tt)
		r := sr.searchRoot(context.Background(), pos, legal, 0, time.Time{}, 9)
		nodes += r.nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/(cpuTime()-cpu0).Seconds(), "nodes/cpu-s")
}

func BenchmarkMidgameNodesGrand(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	s := randomPosition(rng, Grand, 70)
	p, o := s.masks10()
	pos := pos10{p: p, o: o}
	sr := newSearcher10(Grand, 18)
	var legal []int
	for m := sr.moves(pos); !m.isZero(); {
		legal = append(legal, m.pop())
	}
	var nodes uint64
	cpu0 := cpuTime()
	for b.Loop() {
		clear(sr.tt)
		r := sr.searchRoot(context.Background(), pos, legal, 0, time.Time{}, 7)
		nodes += r.nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/(cpuTime()-cpu0).Seconds(), "nodes/cpu-s")
}

// TestChooseRespectsBudget: with plenty of clock but a small budget_ms the
// plan's hard limit stays at half the budget (the search stops there: its
// deadline is checked every 1024 nodes), in every mode, and a cancelled
// context still yields a legal move. The plan is checked, not the wall
// clock: a loaded test machine must not fail it.
func TestChooseRespectsBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	e := NewEngine(EngineOptions{TTBits: 14})
	for _, mode := range Modes {
		s := randomPosition(rng, mode, mode.PlayableSquares()-20)
		legal := s.LegalMoves()
		if len(legal) == 0 {
			continue
		}
		p := &Position{State: s, Legal: legal, RemainingMs: 60000, BudgetMs: 400}
		soft, hard := e.timePlan(p, overheadMs)
		if hard > 200*time.Millisecond || soft > hard {
			t.Errorf("%v: plan soft %v hard %v with budget_ms 400", mode, soft, hard)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if d := e.Choose(ctx, &Position{State: s, Legal: legal, RemainingMs: 60000, BudgetMs: 10000}); !slices.Contains(legal, d.Move) {
			t.Errorf("%v: cancelled search answered %d", mode, d.Move)
		}
	}
}

// TestOverheadAdapts: when the clock loses time outside the searches (slow
// network, a starved machine), the engine plans with the measured loss and
// thinks less.
func TestOverheadAdapts(t *testing.T) {
	e := NewEngine(EngineOptions{})
	k := clockKey{match: 5, leg: 1, color: Black}
	if got := e.observe(k, 60000); got != overheadMs {
		t.Fatalf("first observation %d", got)
	}
	rem := int64(60000)
	var last int64
	for range 6 {
		e.record(k, rem, 100*time.Millisecond)
		rem -= 100 + 1500 // 1.5 s lost per move
		last = e.observe(k, rem)
	}
	if last < 1000 {
		t.Fatalf("overhead %d ms after losing 1.5 s per move", last)
	}
	s := NewState(Std)
	p := &Position{State: s, RemainingMs: rem, BudgetMs: 10000}
	softFast, _ := e.timePlan(p, overheadMs)
	softSlow, _ := e.timePlan(p, last)
	if softSlow >= softFast {
		t.Fatalf("soft %v with overhead %d, %v without", softSlow, last, softFast)
	}
	// Another clock is unaffected.
	if got := e.observe(clockKey{match: 5, leg: 0, color: Black}, 50000); got != overheadMs {
		t.Fatalf("other clock overhead %d", got)
	}
}

// BenchmarkMidgameSet searches 24 self-play midgame positions (8 each at
// 44, 36 and 28 empties) to a fixed depth from a cold table; one op is the
// whole set. OTHELLO_DEPTH overrides the depth (default 10).
func BenchmarkMidgameSet(b *testing.B) {
	depth := 10
	if d, err := strconv.Atoi(os.Getenv("OTHELLO_DEPTH")); err == nil && d > 0 {
		depth = d
	}
	var set []pos8
	for _, e := range []int{44, 36, 28} {
		set = append(set, selfPlaySet(8, e)...)
	}
	benchSet(b, set, func(s *searcher8, pos pos8) rootResult { return searchTo(s, pos, depth) })
}

// negamax8 is the reference for shallow pvs: full-width search to depth
// plies (a pass uses none), exact below the same empties as pvs, the
// static evaluation at the horizon.
func negamax8(s *searcher8, pos pos8, depth int) int {
	empties := s.empties(pos)
	if depth >= empties || empties <= 2 {
		return s.solve(pos, -infScore, infScore, empties)
	}
	m := s.moves(pos)
	if m.isZero() {
		if s.moves(pos.pass()).isZero() {
			return s.final(pos)
		}
		return -negamax8(s, pos.pass(), depth)
	}
	if depth <= 0 {
		return s.eval(pos, m)
	}
	best := -infScore
	for !m.isZero() {
		best = max(best, -negamax8(s, s.play(pos, m.pop()), depth-1))
	}
	return best
}

// TestShallowSearchMatchesNegamax checks pvs (the table, move ordering
// and the depth-1 search) against full-width negamax,
// in every 8×8 mode and with exact, fail-low and fail-high windows.
func TestShallowSearchMatchesNegamax(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := 12
	if raceEnabled || testing.Short() {
		n = 4
	}
	for _, mode := range []Mode{Std, Anti, Reversi} {
		sr := newSearcher8(mode, 12)
		for i := range n {
			st := randomPosition(rng, mode, 6+i*7%30)
			p, o := st.masks8()
			pos := pos8{p: p, o: o, pp: st.placedOf(st.Turn), op: st.placedOf(3 - st.Turn)}
			for depth := 1; depth <= 4; depth++ {
				want := negamax8(sr, pos, depth)
				for _, w := range [][2]int{{-infScore, infScore}, {want, want + 1}, {want - 1, want}, {want - 300, want + 300}} {
					clear(sr.tt)
					got := sr.pvs(pos, depth, w[0], w[1])
					// Fail-soft: a fail-low result bounds the value from
					// above, a fail-high result from below.
					switch {
					case want <= w[0] && (got > w[0] || got < want),
						want >= w[1] && (got < w[1] || got > want),
						want > w[0] && want < w[1] && got != want:
						t.Fatalf("%v #%d depth %d window %v: pvs %d, negamax %d", mode, i, depth, w, got, want)
					}
				}
			}
		}
	}
}

// TestEngineAntiModel: given an anti model (here one of zeros, so that
// only the search and the misère scoring are under test), the std engine
// plays anti and its solves agree with minimax of the misère game.
func TestEngineAntiModel(t *testing.T) {
	m, err := std.NewModel(make([]int16, std.NumStages*std.StageLen), true)
	if err != nil {
		t.Fatal(err)
	}
	set := DefaultStd
	set.AntiModel = m
	e := NewEngine(EngineOptions{TTBits: 14, Std: &set, MaxDepth: 64, SolveAt: 64})
	rng := rand.New(rand.NewPCG(9, 2))
	for i := range 4 {
		s := randomPosition(rng, Anti, 8)
		legal := s.LegalMoves()
		if len(legal) == 0 {
			continue
		}
		want := minimax(s.Clone())
		d := e.Choose(context.Background(), &Position{State: s, Legal: legal, RemainingMs: 60000, BudgetMs: 10000})
		if !d.Exact || int(d.Score) != want || !slices.Contains(legal, d.Move) {
			t.Fatalf("#%d: move %d score %v exact %v, minimax %d", i, d.Move, d.Score, d.Exact, want)
		}
		c := s.Clone()
		c.apply(d.Move)
		if got := -minimax(c); got != want {
			t.Fatalf("#%d: move %d scores %d, best %d", i, d.Move, got, want)
		}
	}
}
