package othello

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello/stdengine"
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

// TestEngineSolvesExactly checks that the root search reports the exact
// minimax value and a best move when the position is solvable.
// Through the engine, each mode's solves are those of its rules as State
// plays them, classic Reversi also with a side at its cap of placed discs
// (the rules the engine states for the generic searcher); anti both with
// its model and with the generic searcher.
func TestEngineSolvesExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	e := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 64, SolveAt: 64})
	for _, mode := range Modes() {
		checkSolves(t, e, rng, mode)
	}
	generic := DefaultStd()
	generic.GenericAnti = true
	checkSolves(t, NewEngine(EngineOptions{TTBits: 14, MaxDepth: 64, SolveAt: 64, Std: &generic}), rng, Anti)
}

func checkSolves(t *testing.T, e *Engine, rng *rand.Rand, mode Mode) {
	t.Helper()
	for i := range 6 {
		s := randomPosition(rng, mode, 8)
		if mode == Reversi && i%2 == 1 {
			// One side has placed all but one of its discs.
			b, w := s.Discs()
			s.Placed = [2]int{b + w - MaxPlaced + 1, MaxPlaced - 1}
			if i%4 == 1 {
				s.Placed[0], s.Placed[1] = s.Placed[1], s.Placed[0]
			}
		}
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

// TestEngineGamesLegal plays fast engine-vs-random games in every mode and
// checks every answer is legal (and a pass exactly when there is no move).
func TestEngineGamesLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	e := NewEngine(EngineOptions{TTBits: 14, FixedTime: 2 * time.Millisecond})
	games := 2
	for _, mode := range Modes() {
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
		soft, hard, failLow := e.timePlan(&Position{State: s, RemainingMs: tc.rem, BudgetMs: tc.budget}, overheadMs)
		if soft > hard || hard < minThinkMs*time.Millisecond || failLow < hard {
			t.Errorf("%+v: soft %v hard %v fail-low %v", tc, soft, hard, failLow)
		}
		// A root that fails low may go on, within three quarters of the
		// budget (the connector kills at the budget) and half the clock.
		if budget := tc.budget; budget > 0 && failLow > hard && (failLow > time.Duration(budget*3/4)*time.Millisecond || failLow > time.Duration(tc.rem/2)*time.Millisecond) {
			t.Errorf("%+v: fail-low deadline %v", tc, failLow)
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
		_, hard, _ := e.timePlan(&Position{State: s, RemainingMs: tc.rem, BudgetMs: 10000}, overheadMs)
		if got := exactEmptiesFor(hard, 8); got < tc.want {
			t.Errorf("%d ms left at %d empties: hard %v solves from %d empties", tc.rem, tc.empties, hard, got)
		}
	}
}

// TestTimePlanPlaysOut plays a leg's clock on the plan alone: every own
// move takes its hard limit (a solve that never finishes, every time) or
// its fail-low one, and the clock loses 5 ms a move besides. On every
// clock the engine is still answering before the connector's margin at
// the last move.
func TestTimePlanPlaysOut(t *testing.T) {
	e := NewEngine(EngineOptions{})
	for _, clock := range []int64{1500, 3000, 5000, 60000} {
		for _, failLow := range []bool{false, true} {
			rem := clock
			for empties := 52; empties > 0; empties -= 2 {
				s := NewState(Std)
				for i := range s.Cells[:64-empties] {
					s.Cells[i] = Black
				}
				budget := min(rem-750, 30000) // FlipSight's connector: the clock less its margin
				_, hard, fl := e.timePlan(&Position{State: s, RemainingMs: rem, BudgetMs: budget}, 5)
				took := hard
				if failLow {
					took = fl
				}
				if took >= time.Duration(max(budget, minThinkMs))*time.Millisecond {
					t.Fatalf("clock %d ms, fail-low %v, %d empties: %v planned with a budget of %d ms", clock, failLow, empties, took, budget)
				}
				rem -= took.Milliseconds() + 5
				if rem < 750 {
					t.Fatalf("clock %d ms, fail-low %v: %d ms left at %d empties", clock, failLow, rem, empties)
				}
			}
		}
	}
}

// TestChooseRespectsBudget: with plenty of clock but a small budget_ms the
// plan's hard limit stays at half the budget (the search stops there: its
// deadline is checked every 1024 nodes), in every mode, and a cancelled
// context still yields a legal move. The plan is checked, not the wall
// clock: a loaded test machine must not fail it.
func TestChooseRespectsBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	e := NewEngine(EngineOptions{TTBits: 14})
	for _, mode := range Modes() {
		s := randomPosition(rng, mode, mode.PlayableSquares()-20)
		legal := s.LegalMoves()
		if len(legal) == 0 {
			continue
		}
		p := &Position{State: s, Legal: legal, RemainingMs: 60000, BudgetMs: 400}
		soft, hard, failLow := e.timePlan(p, overheadMs)
		if hard > 200*time.Millisecond || soft > hard || failLow > 300*time.Millisecond {
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
	softFast, _, _ := e.timePlan(p, overheadMs)
	softSlow, _, _ := e.timePlan(p, last)
	if softSlow >= softFast {
		t.Fatalf("soft %v with overhead %d, %v without", softSlow, last, softFast)
	}
	// Another clock is unaffected.
	if got := e.observe(clockKey{match: 5, leg: 0, color: Black}, 50000); got != overheadMs {
		t.Fatalf("other clock overhead %d", got)
	}
}

// TestEngineAntiModel: given an anti model (here one of zeros, so that
// only the search and the misère scoring are under test), the std engine
// plays anti and its solves agree with minimax of the misère game.
func TestEngineAntiModel(t *testing.T) {
	m, err := stdengine.NewModel(stdengine.LayoutV3, make([]int16, stdengine.NumStages*stdengine.LayoutV3.StageLen()), true)
	if err != nil {
		t.Fatal(err)
	}
	set := DefaultStd()
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

// TestReversiStdDepth checks the hand-over of reversi to the std engine:
// only after the centre phase, never where the generic searcher solves,
// and never deeper than either side has discs left to place, so that no
// line of the search meets the placement limit (a pass takes no depth, so
// a side places at most depth discs in it).
func TestReversiStdDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 5))
	handed := 0
	for i := range 3000 {
		s := randomPosition(rng, Reversi, 4+rng.IntN(50))
		b, w := s.Discs()
		s.Placed = [2]int{(b + w) / 2, b + w - (b+w)/2}
		if i%3 == 0 { // a side placed more, its opponent having passed
			k := rng.IntN(min(s.Placed[1], 8) + 1)
			s.Placed[0], s.Placed[1] = s.Placed[0]+k, s.Placed[1]-k
		}
		exact := []int{0, 12, 20, 25}[i%4]
		d := reversiStdDepth(s, exact)
		centre := s.Cells[27] != Empty && s.Cells[28] != Empty && s.Cells[35] != Empty && s.Cells[36] != Empty
		if d == 0 {
			if centre && s.Empties() > exact && min(MaxPlaced-s.Placed[0], MaxPlaced-s.Placed[1]) >= reversiMinStdDepth {
				t.Fatalf("#%d: not handed over: placed %v, empties %d, exact %d", i, s.Placed, s.Empties(), exact)
			}
			continue
		}
		handed++
		switch {
		case !centre:
			t.Fatalf("#%d: handed over in the centre phase", i)
		case s.Empties() <= exact:
			t.Fatalf("#%d: handed over at %d empties, the solve is from %d", i, s.Empties(), exact)
		case d < reversiMinStdDepth || d > MaxPlaced-s.Placed[0] || d > MaxPlaced-s.Placed[1] || d >= s.Empties():
			t.Fatalf("#%d: depth %d with placed %v and %d empties", i, d, s.Placed, s.Empties())
		}
	}
	if handed < 1000 {
		t.Fatalf("only %d of 3000 positions handed over", handed)
	}
}

// TestReversiPlayedByStd checks a reversi midgame goes to the std engine
// (the only one that searches on two threads) and an ending with little
// room under the limit to the generic searcher, each answering legally.
func TestReversiPlayedByStd(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 6))
	e := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 6, Threads: 2})
	for _, tc := range []struct {
		empties, threads int
	}{{40, 2}, {30, 2}, {10, 1}} {
		s := randomPosition(rng, Reversi, tc.empties)
		b, w := s.Discs()
		s.Placed = [2]int{(b + w) / 2, b + w - (b+w)/2}
		legal := s.LegalMoves()
		if len(legal) == 0 {
			t.Fatalf("%d empties: no legal move in the test position", tc.empties)
		}
		d := e.Choose(context.Background(), &Position{State: s, Legal: legal})
		if d.Threads != tc.threads || !slices.Contains(legal, d.Move) {
			t.Errorf("%d empties: move %d on %d threads, want one of %v on %d", tc.empties, d.Move, d.Threads, legal, tc.threads)
		}
		if d.Depth > 6 || d.Exact && tc.threads == 2 {
			t.Errorf("%d empties: depth %d exact %v", tc.empties, d.Depth, d.Exact)
		}
	}
}
