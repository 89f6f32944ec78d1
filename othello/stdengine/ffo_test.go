package stdengine

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"
)

// FFO endgame test positions (public test data: board a1..h8, X = black,
// O = white, side to move, exact score for the side to move, best moves).
// They measure the std engine's solver; CI solves #40.
var ffoTests = []struct {
	name    string
	board   string
	black   bool
	score   int
	best    []int // squares
	empties int
}{
	{"ffo40", "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", true, 38, []int{8}, 20},        // a2
	{"ffo41", "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-", true, 0, []int{31}, 22},        // h4
	{"ffo42", "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--", true, 6, []int{14}, 22},        // g2
	{"ffo43", "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-", false, -12, []int{50, 22}, 23}, // c7, g3
}

// boardOf reads an FFO board: the mover's and the opponent's discs.
func boardOf(s string, black bool) (p, o uint64) {
	var x, y uint64
	for i, c := range s {
		switch c {
		case 'X':
			x |= 1 << uint(i)
		case 'O':
			y |= 1 << uint(i)
		}
	}
	if black {
		return x, y
	}
	return y, x
}

func solveFFO(tb testing.TB, s *Searcher, i int) Result {
	tb.Helper()
	tc := ffoTests[i]
	p, o := boardOf(tc.board, tc.black)
	r := s.Search(context.Background(), p, o, !tc.black, movesList(p, o), Limits{MaxDepth: 64})
	if r.Score != tc.score || !r.Exact || !slices.Contains(tc.best, r.Move) {
		tb.Fatalf("%s: move %d score %+d exact %v, want %v %+d exact", tc.name, r.Move, r.Score, r.Exact, tc.best, tc.score)
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
	for i, tc := range ffoTests {
		start := time.Now()
		r := solveFFO(t, NewSearcher(testModel(t), 20), i)
		t.Logf("%s (%d empties): %d %+d in %v, %d nodes", tc.name, tc.empties, r.Move, r.Score, time.Since(start), r.Nodes)
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
