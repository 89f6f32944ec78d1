package othello

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// FFO endgame test positions (public test data: board a1..h8, X = black,
// O = white, side to move, exact score for the side to move, best moves).
var ffoTests = []struct {
	name    string
	board   string
	black   bool
	score   int
	best    []string
	empties int
}{
	{"ffo40", "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", true, 38, []string{"a2"}, 20},
	{"ffo41", "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-", true, 0, []string{"h4"}, 22},
	{"ffo42", "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--", true, 6, []string{"g2"}, 22},
	{"ffo43", "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-", false, -12, []string{"c7", "g3"}, 23},
}

func ffoPos(t testing.TB, board string, black bool) pos8 {
	t.Helper()
	var x, o bits8
	for i, c := range board {
		switch c {
		case 'X':
			x |= bit8(i)
		case 'O':
			o |= bit8(i)
		}
	}
	if black {
		return pos8{p: x, o: o}
	}
	return pos8{p: o, o: x}
}

func solveRoot(s *searcher8, pos pos8) rootResult { return searchTo(s, pos, 64) }

// searchTo searches pos from the root to depth plies (64: to the end).
func searchTo(s *searcher8, pos pos8, depth int) rootResult {
	var legal []int
	for m := s.moves(pos); !m.isZero(); {
		legal = append(legal, m.pop())
	}
	return s.searchRoot(context.Background(), pos, legal, 0, time.Time{}, depth)
}

func TestFFO40(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("20-empty solve is a benchmark under -race/-short")
	}
	tc := ffoTests[0]
	s := newSearcher8(Std, 18)
	res := solveRoot(s, ffoPos(t, tc.board, tc.black))
	if !res.exact || res.score != tc.score*discScale || SquareName(res.move, 8) != tc.best[0] {
		t.Errorf("%s: move %s score %d exact %v, want %s %d", tc.name, SquareName(res.move, 8), res.score/discScale, res.exact, tc.best[0], tc.score)
	}
}

// BenchmarkEndgame20 solves FFO #40 (20 empties) exactly from a cold table.
func BenchmarkEndgame20(b *testing.B) {
	tc := ffoTests[0]
	s := newSearcher8(Std, 19)
	pos := ffoPos(b, tc.board, tc.black)
	var nodes uint64
	cpu0 := cpuTime()
	for b.Loop() {
		clear(s.tt)
		res := solveRoot(s, pos)
		nodes += res.nodes
		if res.score != tc.score*discScale {
			b.Fatalf("score %d", res.score)
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// TestFFOAll solves FFO #40–#43 (20–23 empties; minutes on a loaded
// machine): OTHELLO_LONG=1 go test -run FFOAll -v ./othello/
func TestFFOAll(t *testing.T) {
	if os.Getenv("OTHELLO_LONG") != "1" {
		t.Skip("long: set OTHELLO_LONG=1")
	}
	for _, tc := range ffoTests {
		s := newSearcher8(Std, 20)
		start := time.Now()
		res := solveRoot(s, ffoPos(t, tc.board, tc.black))
		t.Logf("%s (%d empties): %s %+d in %v, %d nodes", tc.name, tc.empties, SquareName(res.move, 8), res.score/discScale, time.Since(start), res.nodes)
		if res.score != tc.score*discScale {
			t.Errorf("%s: score %d, want %d", tc.name, res.score/discScale, tc.score)
		}
	}
}

// cpuTime is the process's user+system CPU time: on a loaded machine it
// measures a single-threaded search better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// selfPlaySet returns n positions with the given empties from depth-4
// self-play games (fixed seed), for benchmarks broader than one position:
// single solve times swing with small ordering changes.
func selfPlaySet(n, empties int) []pos8 {
	rng := rand.New(rand.NewPCG(7, uint64(empties)))
	s := newSearcher8(Std, 18)
	var out []pos8
	for len(out) < n {
		for _, pos := range selfPlayGame(rng, 4, 6, s) {
			if 64-pos.p.count()-pos.o.count() == empties {
				out = append(out, pos8{p: pos.p, o: pos.o})
				break
			}
		}
	}
	return out
}

// BenchmarkEndgameSet20 solves 20 self-play positions at 20 empties, each
// from a cold table (one op = the whole set).
func BenchmarkEndgameSet20(b *testing.B) {
	benchSet(b, selfPlaySet(20, 20), func(s *searcher8, pos pos8) rootResult {
		res := solveRoot(s, pos)
		if !res.exact && s.moves(pos).count() > 1 { // a forced move is not searched
			b.Fatalf("not solved exactly: depth %d", res.depth)
		}
		return res
	})
}

// benchSet runs search on every position of set from a cold table (one op
// = the whole set) and reports nodes and CPU seconds per op.
func benchSet(b *testing.B, set []pos8, search func(s *searcher8, pos pos8) rootResult) {
	s := newSearcher8(Std, 20)
	var nodes uint64
	cpu0 := cpuTime()
	for b.Loop() {
		for _, pos := range set {
			clear(s.tt)
			nodes += search(s, pos).nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkEndgameSet24 solves 6 self-play positions at 24 empties, each
// from a cold table (one op = the whole set): the empties where the clock
// decides whether the root can solve.
func BenchmarkEndgameSet24(b *testing.B) {
	n, e := 6, 24
	if v, err := strconv.Atoi(os.Getenv("OTHELLO_EMPTIES")); err == nil && v >= 12 && v <= 30 {
		e = v
	}
	benchSet(b, selfPlaySet(n, e), func(s *searcher8, pos pos8) rootResult {
		s.exactEmpties = e // as the engine does when the clock allows it
		res := solveRoot(s, pos)
		if !res.exact && s.moves(pos).count() > 1 {
			b.Fatalf("not solved exactly: depth %d", res.depth)
		}
		return res
	})
}
