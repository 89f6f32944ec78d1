package othello

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"testing/synctest"
)

// TestCores: a search takes a core and the free ones it asks for; one
// that finds none free calls back the oldest search's helpers; every core
// comes back when the searches are done.
func TestCores(t *testing.T) {
	c := NewCores(2)
	a, aHelpers, releaseA := c.take(2)
	if a != 2 || aHelpers == nil {
		t.Fatalf("alone: %d threads, helpers %v", a, aHelpers)
	}
	b, bHelpers, releaseB := c.take(2)
	if b != 1 || bHelpers != nil {
		t.Fatalf("while another searches on both cores: %d threads", b)
	}
	select {
	case <-aHelpers.Done():
	default:
		t.Fatal("the first search's helpers were not called back")
	}
	if s := c.Stats(); s.Used != 2 || s.CalledBack != 1 || s.Helped != 1 || s.Peak != 2 {
		t.Fatalf("two searches on two cores: %+v", s)
	}
	releaseA()
	d, _, releaseD := c.take(2)
	if d != 1 {
		t.Fatalf("one core free: %d threads", d)
	}
	releaseB()
	releaseD()
	// A third search while two use both cores, neither with helpers:
	// it searches anyway, on one.
	_, _, r1 := c.take(1)
	_, _, r2 := c.take(1)
	e, _, r3 := c.take(3)
	if e != 1 {
		t.Fatalf("no core free, none to call back: %d threads", e)
	}
	r1()
	r2()
	r3()
	if s := c.Stats(); s.Used != 0 || s.Searches != 6 || s.Peak != 3 {
		t.Fatalf("after the searches: %+v", s)
	}
	f, _, rf := c.take(4)
	if f != 2 {
		t.Fatalf("alone again, asking for 4 of 2 cores: %d threads", f)
	}
	rf()
}

// TestEngineThreads: with two threads the engine solves exactly what one
// solves (the minimax value), and plays legal moves at a fixed depth.
func TestEngineThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	e := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 64, SolveAt: 64, Threads: 2})
	for i := range 6 {
		s := randomPosition(rng, Std, 9)
		legal := s.LegalMoves()
		if len(legal) == 0 {
			continue
		}
		want := minimax(s.Clone())
		d := e.Choose(context.Background(), &Position{State: s, Legal: legal, RemainingMs: 60000, BudgetMs: 10000})
		if !d.Exact || int(d.Score) != want || d.Threads != 2 {
			t.Fatalf("#%d: %+v, minimax %d", i, d, want)
		}
	}
	e = NewEngine(EngineOptions{TTBits: 14, MaxDepth: 5, Threads: 2})
	s := NewState(Std)
	for !s.Over() {
		legal := s.LegalMoves()
		m := Pass
		if len(legal) > 0 {
			d := e.Choose(context.Background(), &Position{State: s.Clone(), Legal: legal, RemainingMs: 60000, BudgetMs: 10000})
			if m = d.Move; !slices.Contains(legal, m) {
				t.Fatalf("move %d not in %v", m, legal)
			}
		}
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEnginesShareCores: two engines sharing two cores, as the
// connector's legs do: the first searches on both, the second, starting
// while the first searches, takes a core back and searches on one; all
// come back.
func TestEnginesShareCores(t *testing.T) {
	cores := NewCores(2)
	long := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 64, Threads: 2, Cores: cores})
	short := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 4, Threads: 2, Cores: cores})
	rng := rand.New(rand.NewPCG(4, 4))
	s := randomPosition(rng, Std, 40)
	pos := &Position{State: s, Legal: s.LegalMoves(), RemainingMs: 60000, BudgetMs: 10000}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan Decision)
	go func() { first <- long.Choose(ctx, pos) }() // depth 64 at 40 empties: until cancelled
	for cores.Stats().Used < 2 {
		runtime.Gosched()
	}
	d := short.Choose(context.Background(), &Position{State: s.Clone(), Legal: s.LegalMoves(), RemainingMs: 60000, BudgetMs: 10000})
	if d.Threads != 1 || d.Depth != 4 || !slices.Contains(pos.Legal, d.Move) {
		t.Errorf("the second search: %+v", d)
	}
	if st := cores.Stats(); st.CalledBack != 1 || st.Peak != 2 {
		t.Errorf("cores while both searched: %+v", st)
	}
	cancel()
	if d := <-first; d.Threads != 2 || !slices.Contains(pos.Legal, d.Move) {
		t.Errorf("the first search: %+v", d)
	}
	if st := cores.Stats(); st.Used != 0 {
		t.Errorf("cores after both searches: %+v", st)
	}
}

// TestCoresLend: a ponder gets a core only when one is free, and gives it
// to the next search that wants it, for its main searcher or a helper.
func TestCoresLend(t *testing.T) {
	c := NewCores(2)
	idle := context.Background()
	ponder, releaseP, ok := c.lend(idle)
	if !ok {
		t.Fatal("no core lent on an idle machine")
	}
	n, _, release := c.take(2)
	if n != 2 {
		t.Fatalf("a search beside a ponder: %d threads, want both cores", n)
	}
	select {
	case <-ponder.Done():
	default:
		t.Fatal("the ponder kept a core a search's helper wanted")
	}
	gone, cancel := context.WithCancel(idle)
	cancel()
	if _, _, ok := c.lend(gone); ok {
		t.Fatal("a core lent while a search uses both")
	}
	releaseP() // after being called back: gives nothing back twice
	if s := c.Stats(); s.Used != 2 || s.Ponders != 1 || s.PondersStopped != 1 {
		t.Fatalf("a search on both cores, its ponder stopped: %+v", s)
	}
	release()
	_, _, r1 := c.take(1)
	ponder, releaseP, ok = c.lend(idle)
	if !ok {
		t.Fatal("no core lent beside a one-thread search")
	}
	_, _, r2 := c.take(1)
	select {
	case <-ponder.Done():
	default:
		t.Fatal("a search found no core free and the ponder kept its")
	}
	releaseP()
	r1()
	r2()
	if s := c.Stats(); s.Used != 0 {
		t.Fatalf("all done: %+v", s)
	}
}

// TestPonderWarmsTheTable: after a ponder of the position our move left,
// the search after the reply the ponder expected (its own best move) finds
// the ponder's work in its table and searches fewer nodes than a fresh
// engine does, and plays a legal move. Every mode but std and anti
// returns at once.
func TestPonderWarmsTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 7))
	var warmNodes, coldNodes uint64
	tries := 0
	for range 10 {
		s := randomPosition(rng, Std, 36)
		legal := s.LegalMoves()
		if len(legal) == 0 {
			continue
		}
		at := &Position{State: s, Legal: legal, RemainingMs: 60000}
		pondering := NewEngine(EngineOptions{TTBits: 16, MaxDepth: 9, Pool: 1})
		pondering.Ponder(context.Background(), at)
		expected := NewEngine(EngineOptions{TTBits: 16, MaxDepth: 9, Pool: 1}).Choose(context.Background(), at)
		reply := s.Clone()
		if err := reply.Play(expected.Move); err != nil {
			t.Fatal(err)
		}
		ours := reply.LegalMoves()
		if len(ours) == 0 {
			continue
		}
		p := &Position{State: reply, Legal: ours, RemainingMs: 60000}
		warm := pondering.Choose(context.Background(), p)
		cold := NewEngine(EngineOptions{TTBits: 16, MaxDepth: 9, Pool: 1}).Choose(context.Background(), p)
		if !slices.Contains(ours, warm.Move) {
			t.Fatalf("after a ponder: move %d, legal %v", warm.Move, ours)
		}
		if warm.Nodes >= cold.Nodes {
			t.Errorf("position %d: %d nodes after the ponder, %d without", tries, warm.Nodes, cold.Nodes)
		}
		tries++
		warmNodes += warm.Nodes
		coldNodes += cold.Nodes
	}
	t.Logf("%d searches after a ponder: %d nodes, %d without (%.0f%%)", tries, warmNodes, coldNodes, 100*float64(warmNodes)/float64(coldNodes))
	if tries < 6 || warmNodes*4 > coldNodes*3 {
		t.Fatalf("%d searches after a ponder: %d nodes, %d without", tries, warmNodes, coldNodes)
	}
	for _, mode := range []Mode{Grand, Octagon, Reversi} {
		s := NewState(mode)
		e := NewEngine(EngineOptions{TTBits: 12})
		// An uncancelled context: Ponder must return on its own.
		e.Ponder(context.Background(), &Position{State: s, Legal: s.LegalMoves(), RemainingMs: 60000})
	}
}

// TestPonderWaitsForACore: on shared cores a ponder that finds none free
// waits for one, and one called back by a search goes on once the search
// gives its core back, until its context ends.
func TestPonderWaitsForACore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cores := NewCores(1)
		e := NewEngine(EngineOptions{TTBits: 14, MaxDepth: 64, Cores: cores})
		s := randomPosition(rand.New(rand.NewPCG(5, 5)), Std, 40)
		pos := &Position{State: s, Legal: s.LegalMoves(), RemainingMs: 60000}
		_, _, release := cores.take(1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.Ponder(ctx, pos) // depth 64 at 40 empties: until cancelled
		}()
		synctest.Wait()
		if st := cores.Stats(); st.Ponders != 0 || st.Used != 1 {
			t.Fatalf("a ponder beside a search on the only core: %+v", st)
		}
		waitPonders := func(n int) {
			for cores.Stats().Ponders < n {
				select {
				case <-done:
					t.Fatalf("the ponder ended with its context alive: %+v", cores.Stats())
				default:
					runtime.Gosched()
				}
			}
		}
		release()
		waitPonders(1)
		_, _, release = cores.take(1)
		synctest.Wait() // the ponder gave the core back and waits again
		if st := cores.Stats(); st.Ponders != 1 || st.PondersStopped != 1 || st.Used != 1 {
			t.Fatalf("a search called the ponder's core back: %+v", st)
		}
		release()
		waitPonders(2)
		cancel()
		<-done
		if st := cores.Stats(); st.Used != 0 || st.Ponders != 2 {
			t.Fatalf("the ponder stopped: %+v", st)
		}
	})
}
