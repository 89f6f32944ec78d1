package stdengine

import (
	"context"
	"time"

	"github.com/botarena/gamebot/othello/bitboard"
)

// Limits bound a root search.
type Limits struct {
	// MaxDepth caps the midgame depth (0: none).
	MaxDepth int
	// Soft: no new iteration starts after this much time (0: none).
	Soft time.Duration
	// Deadline abandons the running iteration (zero: none).
	Deadline time.Time
	// FailLowDeadline, when later than Deadline, is the deadline of an
	// iteration whose best move failed low (scored below the last
	// iteration's window): its move is no longer trusted, and stopping
	// there would play it (Edax's rule: do not stop while the root fails
	// low). Zero: never extended.
	FailLowDeadline time.Time
	// MidgameSel is the selectivity of the midgame iterations: a
	// multi-ProbCut level, 0 (1.0σ) … SelExact (no ProbCut).
	MidgameSel int
	// ProbableEmpties: from this many empties down, the root solves after
	// the midgame iterations, probable solves (selectivity rising from
	// MidgameSel); 0: never.
	ProbableEmpties int
	// ExactEmpties: from this many empties down, the root solves exactly
	// after every midgame depth, without probable solves.
	ExactEmpties int
	// SolveAfter: the midgame depth reached before the probable solves.
	SolveAfter int
	// Threads: searchers on as many goroutines sharing the table, a
	// parallel search (parallel.go); ≤ 1: the search of one goroutine.
	Threads int
	// Helpers, when set, stops the helper searchers of a parallel search
	// when it is done (their cores are wanted elsewhere); the main one
	// searches on. Nil: they stop with the search.
	Helpers context.Context
}

// Result is what a root search found.
type Result struct {
	Move        int    // best move (square)
	Score       int    // its score in discs for the side to move
	Depth       int    // completed depth (≥ empties: a solve)
	Selectivity int    // of that iteration (SelExact: no ProbCut)
	Exact       bool   // Score is the proven final score
	Nodes       uint64 // nodes searched, by every searcher of a parallel search
}

// Search chooses among moves (legal moves of p against o; white: white is
// to move) by iterative deepening within the limits. The result's move is
// always one of moves; moves must not be empty. With lim.Threads > 1 the
// search is parallel (parallel.go); it returns only once every searcher it
// started has stopped.
func (s *Searcher) Search(ctx context.Context, p, o uint64, white bool, moves []int, lim Limits) Result {
	start := time.Now()
	s.ctx, s.deadline, s.aborted, s.nodes, s.nextCheck = ctx, lim.Deadline, false, 0, checkEvery
	s.tt.gen++
	b, w := p, o
	if white {
		b, w = o, p
	}
	s.feat[0] = s.model.lay.featuresOf(b, w)
	empties := 64 - count(p|o)
	roots := s.rootBuf[:0]
	for _, sq := range moves {
		f := bitboard.Flips(sq, p, o)
		r := rootMove{sq: sq, f: f, cp: o &^ f, co: p | f | 1<<uint(sq)}
		cm := bitboard.Moves(r.cp, r.co)
		r.score = int(squareValue[sq]) - 64*count(cm)
		roots = append(roots, r)
	}
	s.rootBuf = roots
	sortRoots(roots)
	res := Result{Move: roots[0].sq, Selectivity: lim.MidgameSel}
	if len(roots) == 1 && (lim.Soft > 0 || !lim.Deadline.IsZero()) {
		// On the clock, a forced move is played at once; at a fixed depth
		// (tests, self-play) it is searched for its score.
		s.sel = lim.MidgameSel
		s.child(0, roots[0].sq, roots[0].f, white)
		res.Score = -s.search(roots[0].cp, roots[0].co, 1, !white, -64, 64, 0)
		res.Nodes = s.nodes
		return res
	}
	plan := planOf(s.plan[:0], lim, empties)
	s.plan = plan
	var helped uint64
	if lim.Threads > 1 && len(plan) > 0 {
		res, helped = s.parallel(roots, plan, white, empties, lim, start, res)
	} else {
		res = s.iterate(roots, plan, white, empties, lim, start, res, nil)
	}
	res.Nodes = s.nodes + helped
	s.ctx = nil
	return res
}

// rootMove is a move of the root: its square, flips, the position after
// it (the opponent to move) and its ordering score.
type rootMove struct {
	sq    int
	cp    uint64
	co    uint64
	f     uint64
	score int
}

// sortRoots sorts by descending score (insertion sort: stable, lists are
// short).
func sortRoots(roots []rootMove) {
	for i := 1; i < len(roots); i++ {
		x := roots[i]
		j := i
		for j > 0 && roots[j-1].score < x.score {
			roots[j] = roots[j-1]
			j--
		}
		roots[j] = x
	}
}

// solveShort: a root that solves exactly stops its midgame iterations
// this many plies short of the end.
const solveShort = 5

// iter is one iteration of the root: a depth at a selectivity.
type iter struct{ depth, sel int }

// planOf appends to plan the iterations of a root search: midgame depths
// 1, 2, … at the midgame selectivity, then (when the empties allow)
// solves at rising selectivity. A position the clock lets it solve
// exactly (empties ≤ ExactEmpties), or a fixed depth that reaches the
// end, gets the midgame iterations up to solveShort short of the end and
// then the exact solve alone: those iterations order the solve's moves,
// and the same solves took 1.3–1.7 times the time and nodes when probable
// solves came between; the last few midgame depths before the end cost
// about as much as the solve itself and order it no better
// (docs/othello-training.md).
func planOf(plan []iter, lim Limits, empties int) []iter {
	maxDepth := lim.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 60
	}
	solving := lim.ProbableEmpties > 0 && empties <= lim.ProbableEmpties
	exact := solving && empties <= lim.ExactEmpties
	midTo := maxDepth
	if exact || !solving && maxDepth >= empties {
		midTo = min(maxDepth, empties-solveShort)
	}
	for d := 1; d <= midTo && d < empties && (exact || !(solving && d > lim.SolveAfter)); d++ {
		plan = append(plan, iter{d, lim.MidgameSel})
	}
	if solving || maxDepth >= empties {
		first, last := lim.MidgameSel, SelExact
		if !solving || exact {
			first = SelExact // a fixed depth that reaches the end solves
		} else if empties > lim.ExactEmpties {
			last = SelExact - 1
		}
		for sel := first; sel <= last; sel++ {
			plan = append(plan, iter{empties, sel})
		}
	}
	return plan
}

// iterate runs the plan's iterations in order from res (the forced-move
// default) until it ends, the soft limit passes or the search is
// aborted, and returns the last completed iteration's result (or a move
// an unfinished one proved better). par, when set, is the parallel
// search this searcher is the main one of: it tells the helpers which
// iteration it is in, and takes an iteration a helper completed first.
func (s *Searcher) iterate(roots []rootMove, plan []iter, white bool, empties int, lim Limits, start time.Time, res Result, par *parallelState) Result {
	done := -1 // the plan's iteration res is the result of
	for k := 0; k < len(plan); k++ {
		if par != nil {
			par.mainAt.Store(int32(k))
		}
		if hk, hres := par.completed(); hk >= k {
			res, k, done = hres, hk, hk
			promote(roots, res.Move)
			if lim.Soft > 0 && time.Since(start) > lim.Soft {
				break
			}
			continue
		}
		it := plan[k]
		best, bestSq := s.iteration(roots, it, white, empties, lim, res)
		if s.aborted {
			if hk, hres := par.completed(); hk >= k {
				// A helper completed this iteration (or a later one)
				// first: its result is this iteration's; go on if there
				// is still time.
				res, k, done = hres, hk, hk
				promote(roots, res.Move)
				s.aborted = false
				par.mainAt.Store(int32(k + 1))
				s.checkTime()
				if s.aborted || lim.Soft > 0 && time.Since(start) > lim.Soft {
					break
				}
				continue
			}
			// A move proved better than the last iteration's choice in the
			// unfinished iteration is still better information.
			if bestSq >= 0 && bestSq != res.Move && best > res.Score && res.Depth > 0 {
				res.Move, res.Score = bestSq, best
			}
			break
		}
		sortRoots(roots)
		res.Move, res.Score, res.Depth, res.Selectivity = bestSq, best, it.depth, it.sel
		res.Exact = it.depth >= empties && it.sel == SelExact
		done = k
		if lim.Soft > 0 && time.Since(start) > lim.Soft {
			break
		}
	}
	if hk, hres := par.completed(); hk > done {
		res = hres // completed while the main searcher stopped
	}
	return res
}

// iteration searches every root move to it.depth at it.sel, in an
// aspiration window around the previous iteration's score (res) that
// widens on a fail, and returns the best score and move (bestSq −1 when
// aborted before any move was searched). A fail low moves the deadline to
// lim.FailLowDeadline.
func (s *Searcher) iteration(roots []rootMove, it iter, white bool, empties int, lim Limits, res Result) (best, bestSq int) {
	s.sel = it.sel
	depth := it.depth
	lo, hi := -64, 64
	if res.Depth > 0 {
		w := 2
		if depth >= empties {
			w = 3
		}
		lo, hi = max(res.Score-w, -64), min(res.Score+w, 64)
	}
	// A solve's window that fails moves next to the bound it found (the
	// fail-soft best: the score is beyond it) and widens, 2, 4, 8, …
	// discs, rather than opening to ±64, where every root move would
	// then be searched against a bound far below the best one's.
	solve, widen := depth >= empties, 1
	for {
		alpha, beta := lo, hi
		best, bestSq = -65, -1
		// In a parallel search, a move whose position another searcher
		// is searching goes last (parallel.go); alone, pass 0 is all.
		var deferred uint64
	moves:
		for pass := 0; pass < 2; pass++ {
			for i := range roots {
				if pass == 1 && deferred>>uint(i)&1 == 0 {
					continue
				}
				r := &roots[i]
				var h uint64
				if s.busy != nil {
					h = hash(r.cp, r.co)
					if pass == 0 && i > 0 && s.busy.searching(h) {
						deferred |= 1 << uint(i)
						continue
					}
					s.busy.enter(h)
				}
				s.child(0, r.sq, r.f, white)
				var v int
				if i == 0 {
					v = -s.search(r.cp, r.co, 1, !white, -beta, -alpha, depth-1)
				} else {
					v = -s.search(r.cp, r.co, 1, !white, -alpha-1, -alpha, depth-1)
					if v > alpha && v < beta && !s.aborted {
						v = -s.search(r.cp, r.co, 1, !white, -beta, -alpha, depth-1)
					}
				}
				if h != 0 {
					s.busy.leave(h)
				}
				if s.aborted {
					break moves
				}
				r.score = v
				if v > best {
					best, bestSq = v, r.sq
					alpha = max(alpha, v)
					if v >= beta {
						break moves
					}
				} else {
					r.score = v - 1 // keep the order found among weaker moves
				}
			}
			if deferred == 0 {
				break
			}
		}
		if s.aborted {
			return best, bestSq
		}
		if best <= lo && lo > -64 {
			// Fail low: every move is worse than hoped.
			if solve {
				widen *= 2
				lo, hi = max(best-widen, -64), min(best+1, 64)
			} else {
				lo = -64
			}
			if lim.FailLowDeadline.After(s.deadline) {
				s.deadline = lim.FailLowDeadline
			}
			sortRoots(roots)
			continue
		}
		if best >= hi && hi < 64 {
			if solve {
				widen *= 2
				lo, hi = max(best-1, -64), min(best+widen, 64)
			} else {
				hi = 64
			}
			sortRoots(roots)
			continue
		}
		return best, bestSq
	}
}
