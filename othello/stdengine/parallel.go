package stdengine

import (
	"sync"
	"sync/atomic"
	"time"
)

// The parallel search is Lazy SMP: the main searcher runs the root's
// iterations as it does alone, and helper searchers on other goroutines
// search the same root at the same time, all sharing the transposition
// table (tt.go: lock-free, atomic words when shared). A helper's work
// reaches the search through the table (bounds and best moves of
// positions the main searcher then need not search again, or orders
// better) and through whole iterations: the first searcher to complete an
// iteration gives its result to the search, and the main searcher goes
// on with the next one. It needs no split points and no synchronisation
// inside the tree, so the search of one goroutine stays exactly what it
// was; YBWC, Edax's and Egaroucid's choice, scales further than two or
// four threads, and this engine's use is two cores (FlipSight's machines,
// while the opponent thinks on its own).
//
// A helper searches one iteration ahead of the main one (the iteration
// after the main one's), so that the main searcher finds the next depth's
// bounds and moves in the table, and often that iteration done; on the
// last iteration both search the same tree, and the busy table below
// keeps them apart. Measured on two cores (BenchmarkParallelMidgame,
// BenchmarkParallelEndgame, six runs each), two threads reach depth 12 on
// the midgame set in 0.69× the time of one (with 19% more nodes in all)
// and solve FFO #40 and #41 in 0.61× (6% more nodes). When this design
// was chosen, helpers on the main searcher's own iteration, and helpers
// without the busy table, were slower.

// parallelState is what a parallel search's searchers share besides the
// table (in the main searcher, so that a search allocates nothing for it).
type parallelState struct {
	mainAt atomic.Int32 // the iteration the main searcher is in
	ahead  atomic.Int32 // the latest iteration a helper completed (−1: none)
	stop   atomic.Bool  // the main searcher is done: the helpers stop
	live   atomic.Int32 // helpers running (a search returns at 0)

	mu    sync.Mutex
	doneK int    // ahead, with …
	done  Result // … its result
}

// completed returns the latest iteration a helper completed and its
// result (−1 when none, or when p is nil: no parallel search).
func (p *parallelState) completed() (int, Result) {
	if p == nil || p.ahead.Load() < 0 {
		return -1, Result{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.doneK, p.done
}

// publish records a helper's completed iteration k.
func (p *parallelState) publish(k int, r Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if k > p.doneK {
		p.doneK, p.done = k, r
		p.ahead.Store(int32(k))
	}
}

// promote moves the root move sq to the front.
func promote(roots []rootMove, sq int) {
	for i := range roots {
		if roots[i].sq == sq {
			r := roots[i]
			copy(roots[1:i+1], roots[:i])
			roots[0] = r
			return
		}
	}
}

// parallel runs the plan on the main searcher s and lim.Threads−1 helpers
// and returns the search's result and the helpers' nodes, once every
// helper has stopped.
func (s *Searcher) parallel(roots []rootMove, plan []iter, white bool, empties int, lim Limits, start time.Time, res Result) (Result, uint64) {
	n := lim.Threads - 1
	for len(s.helpers) < n {
		s.helpers = append(s.helpers, &Searcher{model: s.model, anti: s.anti, tt: s.tt, sel: SelExact, margins: s.margins})
	}
	if s.busyTab == nil {
		s.busyTab = new(busyTable)
	}
	par := &s.par
	par.stop.Store(false)
	par.mainAt.Store(0)
	par.ahead.Store(-1)
	par.doneK, par.done = -1, Result{}
	s.tt.shared, s.busy, s.main = true, s.busyTab, par
	var wg sync.WaitGroup
	for _, h := range s.helpers[:n] {
		h.without, h.ctx, h.deadline, h.aborted, h.nodes, h.nextCheck = s.without, lim.Helpers, time.Time{}, false, 0, checkEvery
		h.stop, h.busy = &par.stop, s.busy
		h.feat[0] = s.feat[0]
		h.roots = append(h.roots[:0], roots...)
		wg.Add(1)
		par.live.Add(1)
		go func() {
			defer wg.Done()
			defer par.live.Add(-1)
			h.help(plan, white, empties, par)
		}()
	}
	res = s.iterate(roots, plan, white, empties, lim, start, res, par)
	par.stop.Store(true)
	wg.Wait()
	s.tt.shared, s.busy, s.main = false, nil, nil
	var nodes uint64
	for _, h := range s.helpers[:n] {
		nodes += h.nodes
		h.ctx = nil
	}
	return res, nodes
}

// help is a helper's loop: the iteration after the main searcher's, or
// the last one, until the plan is done or the helper is stopped.
func (h *Searcher) help(plan []iter, white bool, empties int, par *parallelState) {
	var res Result
	done := -1 // the last iteration completed
	last := len(plan) - 1
	for {
		m := int(par.mainAt.Load())
		k := min(max(done+1, m+1), last)
		if k <= done {
			return
		}
		it := plan[k]
		best, bestSq := h.iteration(h.roots, it, white, empties, Limits{}, res)
		if h.aborted {
			return
		}
		sortRoots(h.roots)
		res = Result{Move: bestSq, Score: best, Depth: it.depth, Selectivity: it.sel, Exact: it.depth >= empties && it.sel == SelExact}
		par.publish(k, res)
		done = k
	}
}

// The helpers and the main searcher, searching the same iteration, would
// mostly walk the same tree in the same order. At a node deep enough to
// matter, each marks the child it is searching in a small table of busy
// positions, and a move other than the first whose child another searcher
// is searching now is deferred to the end of the node's list (simplified
// ABDADA, Kerrigan): by then the other searcher has mostly stored its
// result, which answers from the table. Deferring changes only the order
// of a node's moves, never its value.
const (
	busyMinDepth   = 4  // midgame nodes of this depth and more
	busyMinEmpties = 12 // endgame nodes of this many empties and more
	busyBits       = 14 // 16,384 slots
)

// busyTable holds the hash of the child a searcher is searching, at most
// one a slot; a lost mark (two children in one slot) only defers less.
type busyTable [1 << busyBits]atomic.Uint64

func busySlot(h uint64) uint64 { return h >> (64 - busyBits) }

func (b *busyTable) searching(h uint64) bool { return b[busySlot(h)].Load() == h }
func (b *busyTable) enter(h uint64)          { b[busySlot(h)].Store(h) }
func (b *busyTable) leave(h uint64)          { b[busySlot(h)].CompareAndSwap(h, 0) }

// movesShared is a node's move loop in a parallel search (list is ordered,
// alpha and beta the node's window; n is its depth, or its empties in
// the endgame): moves whose child another searcher is searching go last.
// It returns the fail-soft best value and move; on an abort s.aborted is
// set and the values mean nothing.
func (s *Searcher) movesShared(p, o uint64, ply int, white bool, alpha, beta, n int, end bool, list []move) (best, bestSq int) {
	best, bestSq = -65, noMove
	a := alpha
	var deferred uint64
	for pass := 0; pass < 2; pass++ {
		for i := range list {
			if pass == 1 && deferred>>uint(i)&1 == 0 {
				continue
			}
			mv := &list[i]
			cp, co := o&^mv.flips, p|mv.flips|1<<uint(mv.sq)
			h := hash(cp, co)
			if pass == 0 && i > 0 && s.busy.searching(h) {
				deferred |= 1 << uint(i)
				continue
			}
			if !end || n-1 >= featEmpties {
				s.child(ply, mv.sq, mv.flips, white)
			}
			s.busy.enter(h)
			var v int
			if i == 0 {
				v = -s.childValue(cp, co, ply+1, !white, -beta, -a, n-1, end)
			} else {
				v = -s.childValue(cp, co, ply+1, !white, -a-1, -a, n-1, end)
				if v > a && v < beta && !s.aborted {
					v = -s.childValue(cp, co, ply+1, !white, -beta, -a, n-1, end)
				}
			}
			s.busy.leave(h)
			if s.aborted {
				return best, bestSq
			}
			if v > best {
				best, bestSq = v, mv.sq
				if v > a {
					a = v
					if a >= beta {
						return best, bestSq
					}
				}
			}
		}
		if deferred == 0 {
			break
		}
	}
	return best, bestSq
}

// childValue searches a child: to depth n in the midgame, or solved with
// n empties in the endgame.
func (s *Searcher) childValue(p, o uint64, ply int, white bool, alpha, beta, n int, end bool) int {
	if end {
		return s.endgame(p, o, ply, white, alpha, beta, n)
	}
	return s.search(p, o, ply, white, alpha, beta, n)
}
