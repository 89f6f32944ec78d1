package stdengine

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botarena/gamebot/othello/bitboard"
)

// BenchmarkParallelMidgame is the time to depth of the parallel search:
// the midgame set (24 self-play positions at 28–48 empties) to depth
// OTHELLO_DEPTH (default 12) at selectivity 1, each from a cold table, with
// 1 and 2 threads; nodes/op counts every searcher's nodes. Compare the
// ns/op of the two with benchstat: on a two-core machine, the ratio is the
// speedup.
func BenchmarkParallelMidgame(b *testing.B) {
	depth := envInt("OTHELLO_DEPTH", 12)
	set := midgameSet(b)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			s := NewSearcher(testModel(b), 20)
			var nodes uint64
			for b.Loop() {
				for _, pos := range set {
					b.StopTimer()
					s.Clear()
					b.StartTimer()
					r := s.Search(context.Background(), pos.P, pos.O, pos.White, movesList(pos.P, pos.O), Limits{MaxDepth: depth, MidgameSel: 1, Threads: threads})
					nodes += r.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkParallelEndgame is the time to solve FFO #40 (20 empties) and
// #41 (22) exactly from a cold table, with 1 and 2 threads.
func BenchmarkParallelEndgame(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			s := NewSearcher(testModel(b), 20)
			var nodes uint64
			for b.Loop() {
				for i := range 2 {
					b.StopTimer()
					s.Clear()
					b.StartTimer()
					nodes += solveFFOThreads(b, s, i, threads).Nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

func solveFFOThreads(tb testing.TB, s *Searcher, i, threads int) Result {
	tb.Helper()
	tc := FFO()[i]
	r := s.Search(context.Background(), tc.P, tc.O, tc.White, movesList(tc.P, tc.O), Limits{MaxDepth: 64, Threads: threads})
	if r.Score != tc.Score || !r.Exact || !slices.Contains(tc.Best, r.Move) {
		tb.Fatalf("%s: move %d score %+d exact %v, want %v %+d exact", tc.Name, r.Move, r.Score, r.Exact, tc.Best, tc.Score)
	}
	return r
}

// TestParallelExact: with 2 and 3 threads an exact solve scores what the
// single-thread solve scores (exact is exact, whatever the helpers stored
// in the shared table), and its move scores that too; with the table kept
// from one position to the next, and through probable solves first.
func TestParallelExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 16))
	n := 12
	if testing.Short() || raceEnabled {
		n = 5
	}
	var set []Position
	for i := range n {
		set = append(set, SelfPlayPositions(rng, testModel(t), 1, 12+i%5, 12+i%5)...)
	}
	one := NewSearcher(testModel(t), 16)
	for _, threads := range []int{2, 3} {
		s := NewSearcher(testModel(t), 16)
		for i, pos := range set {
			moves := movesList(pos.P, pos.O)
			e := 64 - bits.OnesCount64(pos.P|pos.O)
			one.Clear()
			want := one.Search(context.Background(), pos.P, pos.O, pos.White, moves, Limits{MaxDepth: 64})
			for _, lim := range []Limits{
				{MaxDepth: 64, Threads: threads},
				{MaxDepth: 8, MidgameSel: 1, ProbableEmpties: e + 2, ExactEmpties: e, SolveAfter: 4, Threads: threads},
			} {
				got := s.Search(context.Background(), pos.P, pos.O, pos.White, moves, lim)
				if !got.Exact || got.Score != want.Score || got.Depth != e {
					t.Fatalf("threads %d #%d (%d empties) %+v: %+v, alone %+v", threads, i, e, lim, got, want)
				}
				if !slices.Contains(moves, got.Move) {
					t.Fatalf("threads %d #%d: move %d not in %v", threads, i, got.Move, moves)
				}
				f := bitboard.Flips(got.Move, pos.P, pos.O)
				cp, co := pos.O&^f, pos.P|f|1<<uint(got.Move)
				var child int
				if bitboard.Moves(cp, co) == 0 && bitboard.Moves(co, cp) == 0 {
					child = -(bits.OnesCount64(cp) - bits.OnesCount64(co))
				} else if bitboard.Moves(cp, co) == 0 {
					one.Clear()
					child = one.Search(context.Background(), co, cp, pos.White, movesList(co, cp), Limits{MaxDepth: 64}).Score
				} else {
					one.Clear()
					child = -one.Search(context.Background(), cp, co, !pos.White, movesList(cp, co), Limits{MaxDepth: 64}).Score
				}
				if child != want.Score {
					t.Fatalf("threads %d #%d: move %d scores %d, best %d", threads, i, got.Move, child, want.Score)
				}
			}
			if live := s.par.live.Load(); live != 0 {
				t.Fatalf("%d helpers still running after the search", live)
			}
		}
	}
}

// TestParallelLegal: a parallel search returns one of the moves it is
// given, at the depth asked, forced moves included, with the nodes of
// every searcher counted.
func TestParallelLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := NewSearcher(testModel(t), 14)
	for i := range 40 {
		p, o, white := positionAt(rng, 20+i%40)
		moves := movesList(p, o)
		if len(moves) == 0 {
			continue
		}
		depth := 1 + i%6
		r := s.Search(context.Background(), p, o, white, moves, Limits{MaxDepth: depth, MidgameSel: i % (SelExact + 1), Threads: 2})
		if !slices.Contains(moves, r.Move) || r.Depth != depth || r.Nodes == 0 {
			t.Fatalf("#%d: %+v, moves %v, depth %d", i, r, moves, depth)
		}
	}
}

// countdownCtx is a context whose Err says cancelled from its nth call on:
// a search checks it every 4096 nodes, so it stops a search after a fixed
// amount of work and not of time.
type countdownCtx struct {
	context.Context
	left atomic.Int64
	once sync.Once
	done chan struct{}
}

func newCountdown(n int64) *countdownCtx {
	c := &countdownCtx{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) >= 0 {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

func (c *countdownCtx) Done() <-chan struct{} { return c.done }

// TestParallelCancel: a cancelled search stops its helpers before it
// returns (a WaitGroup and a count of running helpers), leaves no
// goroutine behind and answers one of its moves; helpers called back
// (Limits.Helpers) stop and the main searcher completes its depth.
func TestParallelCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	s := NewSearcher(testModel(t), 16)
	before := runtime.NumGoroutine()
	for i := range 4 {
		p, o, white := positionAt(rng, 30+i)
		moves := movesList(p, o)
		if len(moves) < 2 {
			continue
		}
		// No depth limit: only the cancellation ends the search.
		ctx := newCountdown(int64(1 + i))
		r := s.Search(ctx, p, o, white, moves, Limits{Threads: 3})
		if live := s.par.live.Load(); live != 0 {
			t.Fatalf("#%d: %d helpers still running after a cancelled search", i, live)
		}
		if !slices.Contains(moves, r.Move) {
			t.Fatalf("#%d: move %d not in %v", i, r.Move, moves)
		}
		if r.Depth >= 30 {
			t.Fatalf("#%d: the search was not cancelled: %+v", i, r)
		}
		helpers, cancel := context.WithCancel(context.Background())
		cancel()
		r = s.Search(context.Background(), p, o, white, moves, Limits{MaxDepth: 5, Threads: 2, Helpers: helpers})
		if r.Depth != 5 || !slices.Contains(moves, r.Move) || s.par.live.Load() != 0 {
			t.Fatalf("#%d, helpers called back: %+v", i, r)
		}
	}
	// A goroutine that has called wg.Done may still be on its way out (on
	// a loaded machine, for a while).
	for range 1_000_000 {
		if runtime.NumGoroutine() <= before {
			return
		}
		runtime.Gosched()
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines before the searches, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
}

// TestTableShared: searchers writing and reading the same entries at once
// (a small table: slots collide and are replaced) only ever read one
// writer's whole entry; under -race, the table's shared words race with
// nothing.
func TestTableShared(t *testing.T) {
	tt := newTable(6)
	tt.shared = true
	const writers, positions = 4, 200
	value := func(i, w int) int { return (i*7+w*13)%61 - 30 }
	var wg sync.WaitGroup
	bad := make(chan string, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 50 {
				for i := range positions {
					p, o := uint64(i)*0x9E3779B97F4A7C15|1, uint64(i+round%3)<<20|2
					// Writer w stores depth w+1, move w and an exact value
					// of its own: a hit is one writer's entry iff its
					// fields agree.
					v := value(i, w)
					tt.store(p, o, w+1, SelExact, v-1, v+1, v, w)
					if e, ok := tt.probe(p, o); ok {
						m := int(e.move)
						if m >= writers || int(e.depth) != m+1 || int(e.lower) != value(i, m) || e.upper != e.lower || int(e.sel) != SelExact {
							bad <- fmt.Sprintf("position %d: entry %+v is no writer's", i, e)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(bad)
	for msg := range bad {
		t.Error(msg)
	}
}

// TestAllocs: a search's nodes allocate nothing: one thread allocates
// nothing at all, from a cold table or a warm one, midgame or solve; a
// parallel search allocates its goroutines' few objects, as many at depth
// 7 as at depth 3.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	s := NewSearcher(testModel(t), 16)
	allocs := func(empties int, lim Limits) float64 {
		p, o, white := positionAt(rng, empties)
		moves := movesList(p, o)
		return testing.AllocsPerRun(3, func() {
			s.Clear()
			s.Search(context.Background(), p, o, white, moves, lim)
		})
	}
	if a := allocs(36, Limits{MaxDepth: 9, MidgameSel: 1}); a != 0 {
		t.Errorf("%v allocations per midgame search", a)
	}
	if a := allocs(16, Limits{MaxDepth: 64}); a != 0 {
		t.Errorf("%v allocations per solve", a)
	}
	shallow, deep := allocs(36, Limits{MaxDepth: 3, MidgameSel: 1, Threads: 2}), allocs(36, Limits{MaxDepth: 7, MidgameSel: 1, Threads: 2})
	if deep > shallow || deep > 4 {
		t.Errorf("allocations per parallel search: %v at depth 3, %v at depth 7", shallow, deep)
	}
}
