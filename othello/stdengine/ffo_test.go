package stdengine

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"
)

func solveFFO(tb testing.TB, s *Searcher, i int) Result {
	tb.Helper()
	tc := FFO()[i]
	r := s.Search(context.Background(), tc.P, tc.O, tc.White, movesList(tc.P, tc.O), Limits{MaxDepth: 64})
	if r.Score != tc.Score || !r.Exact || !slices.Contains(tc.Best, r.Move) {
		tb.Fatalf("%s: move %d score %+d exact %v, want %v %+d exact", tc.Name, r.Move, r.Score, r.Exact, tc.Best, tc.Score)
	}
	return r
}

func TestFFO40(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a 20-empty solve is a benchmark under -race/-short")
	}
	r := solveFFO(t, NewSearcher(testModel(t), 20), 0)
	t.Logf("FFO #40: %d nodes", r.Nodes)
}

// TestFFOAll solves FFO #40–#43 (20–23 empties; a minute or more on a
// loaded machine): OTHELLO_LONG=1 go test -run FFOAll -v ./othello/stdengine
func TestFFOAll(t *testing.T) {
	if os.Getenv("OTHELLO_LONG") != "1" {
		t.Skip("long: set OTHELLO_LONG=1")
	}
	for i, tc := range FFO()[:4] {
		start := time.Now()
		r := solveFFO(t, NewSearcher(testModel(t), 20), i)
		t.Logf("%s (%d empties): %d %+d in %v, %d nodes", tc.Name, 64-count(tc.P|tc.O), r.Move, r.Score, time.Since(start), r.Nodes)
	}
}

func BenchmarkFFO40(b *testing.B) {
	s := NewSearcher(testModel(b), 20)
	var nodes uint64
	for b.Loop() {
		s.Clear()
		nodes += solveFFO(b, s, 0).Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
