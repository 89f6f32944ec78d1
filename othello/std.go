package othello

import (
	"context"
	"time"

	"github.com/botarena/gamebot/othello/bitboard"
	"github.com/botarena/gamebot/othello/stdengine"
)

// stdSolveAfter is the midgame depth the root reaches before probable
// solves (a position with too many empties to solve exactly in time): a
// solve that does not finish plays that iteration's move, so probable
// solves, which often do not, come after a deep one. A position it can
// solve exactly gets every midgame depth first (stdengine's planOf).
const stdSolveAfter = 16

// reversiMinStdDepth: below this depth the std engine would see less of
// a reversi position than the generic searcher, which knows the limit.
const reversiMinStdDepth = 6

// reversiStdDepth is how deep the std engine may search a reversi
// position, 0 when it may not. After the centre phase reversi is std
// Othello until a side has placed MaxPlaced discs and must pass: a search
// in which neither side can place more discs than it has left is a std
// search (a pass takes no depth in it, and the leaves are evaluated as in
// std). The sides' discs left add up to the empties when the counts are
// right, so the depth is at most half the empties, never a solve; the
// endings, where the limit decides, stay with the generic searcher, which
// solves them under the rules from exact empties.
func reversiStdDepth(st *State, exact int) int {
	pl, op := st.Bitboards()
	empties := st.Empties()
	if bitboard.Centre&^(pl|op) != 0 || empties <= exact {
		return 0
	}
	d := min(MaxPlaced-st.Placed[0], MaxPlaced-st.Placed[1], empties/2)
	if d < reversiMinStdDepth {
		return 0
	}
	return d
}

// stdLimits are the std engine's limits when a move may take up to hard
// (timed: whether there is a clock at all): the selectivity, and from how
// many empties the root solves, probably and then exactly.
func (e *Engine) stdLimits(hard time.Duration, timed bool) stdengine.Limits {
	exact := exactEmptiesFor(hard, 8)
	lim := stdengine.Limits{MidgameSel: e.std.MidgameSel,
		ExactEmpties: exact, ProbableEmpties: exact + e.std.ProbableSolves, SolveAfter: stdSolveAfter}
	if !timed {
		lim.ExactEmpties, lim.ProbableEmpties = 0, 0
	}
	return lim
}

// stdSearcher borrows a std-engine searcher with the std model (anti: the
// anti model) and its table from the engine's pool, or makes one; done
// gives it back.
func (e *Engine) stdSearcher(anti bool) (s *stdengine.Searcher, done func()) {
	model, pool := e.std.Model, e.stdPool
	if model == nil {
		model = stdengine.Embedded()
	}
	if anti {
		model, pool = e.std.AntiModel, e.antiPool
		if model == nil {
			model = stdengine.EmbeddedAnti()
		}
	}
	s, ok := pool.get()
	if !ok {
		s = stdengine.NewSearcher(model, e.opts.TTBits+1)
		s.SetWithout(e.std.Without)
		if e.std.Errors != nil && !anti {
			s.SetErrors(*e.std.Errors)
		}
	}
	return s, func() { pool.put(s) }
}

// chooseStd searches with the std engine as s says: a std position, an
// anti one (s.anti: with the anti model), or a reversi one, which is
// never solved (s.solve false).
func (e *Engine) chooseStd(ctx context.Context, p *Position, s search) Decision {
	sr, done := e.stdSearcher(s.anti)
	defer done()
	st := p.State
	pl, op := st.Bitboards()
	lim := e.stdLimits(time.Until(s.deadline), !s.deadline.IsZero())
	lim.MaxDepth, lim.Soft, lim.Deadline, lim.FailLowDeadline = s.maxDepth, s.soft*6/10, s.deadline, s.failLow
	lim.Threads, lim.Helpers = s.threads, s.helpers
	if e.opts.SolveAt > 0 {
		lim.ProbableEmpties, lim.ExactEmpties = 0, 0
		if st.Empties() <= e.opts.SolveAt && s.solve {
			lim.MaxDepth = 64
		}
	}
	if !s.solve {
		lim.ProbableEmpties, lim.ExactEmpties = 0, 0
	}
	res := sr.Search(ctx, pl, op, st.Turn == White, p.Legal, lim)
	return Decision{Move: res.Move, Score: float64(res.Score), Depth: res.Depth, Exact: res.Exact, Nodes: res.Nodes}
}
