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
	// ProbableEmpties: from this many empties on, the root solves after
	// the midgame iterations, probable solves first (selectivity rising
	// from MidgameSel); 0: never.
	ProbableEmpties int
	// ExactEmpties: from this many empties on, the solves go on to
	// SelExact (an exact solve); above it they stop at SelExact−1.
	ExactEmpties int
	// SolveAfter: the midgame depth reached before the root starts solving.
	SolveAfter int
}

// Result is what a root search found.
type Result struct {
	Move        int    // best move (square)
	Score       int    // its score in discs for the side to move
	Depth       int    // completed depth (≥ empties: a solve)
	Selectivity int    // of that iteration (SelExact: no ProbCut)
	Exact       bool   // Score is the proven final score
	Nodes       uint64 // nodes searched
}

// Search chooses among moves (legal moves of p against o; white: white is
// to move) by iterative deepening within the limits. The result's move is
// always one of moves; moves must not be empty.
func (s *Searcher) Search(ctx context.Context, p, o uint64, white bool, moves []int, lim Limits) Result {
	start := time.Now()
	s.ctx, s.deadline, s.aborted, s.nodes = ctx, lim.Deadline, false, 0
	s.tt.gen++
	b, w := p, o
	if white {
		b, w = o, p
	}
	s.feat[0] = featuresOf(b, w)
	empties := 64 - count(p|o)
	type root struct {
		sq    int
		cp    uint64
		co    uint64
		f     uint64
		score int
	}
	roots := make([]root, 0, len(moves))
	for _, sq := range moves {
		f := bitboard.Flips(sq, p, o)
		r := root{sq: sq, f: f, cp: o &^ f, co: p | f | 1<<uint(sq)}
		cm := bitboard.Moves(r.cp, r.co)
		r.score = int(squareValue[sq]) - 64*count(cm)
		roots = append(roots, r)
	}
	sortRoots := func() {
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
	sortRoots()
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
	maxDepth := lim.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 60
	}
	// The iterations: midgame depths 1, 2, … at the midgame selectivity,
	// then (when the empties allow) solves at rising selectivity.
	type iter struct{ depth, sel int }
	var plan []iter
	solving := lim.ProbableEmpties > 0 && empties <= lim.ProbableEmpties
	for d := 1; d <= maxDepth && d < empties && !(solving && d > lim.SolveAfter); d++ {
		plan = append(plan, iter{d, lim.MidgameSel})
	}
	if solving || maxDepth >= empties {
		first, last := lim.MidgameSel, SelExact
		if !solving {
			first = SelExact // a fixed depth that reaches the end solves
		} else if empties > lim.ExactEmpties {
			last = SelExact - 1
		}
		for sel := first; sel <= last; sel++ {
			plan = append(plan, iter{empties, sel})
		}
	}
	for _, it := range plan {
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
		best, bestSq := -65, -1
		for {
			alpha, beta := lo, hi
			best, bestSq = -65, -1
			for i := range roots {
				r := &roots[i]
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
				if s.aborted {
					break
				}
				r.score = v
				if v > best {
					best, bestSq = v, r.sq
					alpha = max(alpha, v)
					if v >= beta {
						break
					}
				} else {
					r.score = v - 1 // keep the order found among weaker moves
				}
			}
			if s.aborted {
				break
			}
			if best <= lo && lo > -64 {
				lo = -64 // fail low: every move is worse than hoped
				if lim.FailLowDeadline.After(s.deadline) {
					s.deadline = lim.FailLowDeadline
				}
				sortRoots()
				continue
			}
			if best >= hi && hi < 64 {
				hi = 64
				sortRoots()
				continue
			}
			break
		}
		if s.aborted {
			// A move proved better than the last iteration's choice in the
			// unfinished iteration is still better information.
			if bestSq >= 0 && bestSq != res.Move && best > res.Score && res.Depth > 0 {
				res.Move, res.Score = bestSq, best
			}
			break
		}
		sortRoots()
		res.Move, res.Score, res.Depth, res.Selectivity = bestSq, best, depth, it.sel
		res.Exact = depth >= empties && it.sel == SelExact
		if lim.Soft > 0 && time.Since(start) > lim.Soft {
			break
		}
	}
	res.Nodes = s.nodes
	s.ctx = nil
	return res
}
