package variants

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The benchmarks measure the searcher on the games it plays: anti and
// classic Reversi on 8×8, grand and octagon on 10×10 (std positions are
// the std engine's: othello/stdengine).

// cpuTime is the process's user+system CPU time: on a loaded machine it
// measures a single-threaded search better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// legalOf lists the moves of the side to move.
func legalOf8(s *Searcher8, pos pos8) []int {
	var legal []int
	for m := s.moves(pos); !m.IsZero(); {
		legal = append(legal, m.Pop())
	}
	return legal
}

func legalOf10(s *Searcher10, pos pos10) []int {
	var legal []int
	for m := s.moves(pos); !m.IsZero(); {
		legal = append(legal, m.Pop())
	}
	return legal
}

// searchTo searches pos from the root to depth plies (64: to the end).
func searchTo(s *Searcher8, pos pos8, depth int) rootResult {
	return s.searchRoot(context.Background(), pos, legalOf8(s, pos), 0, time.Time{}, depth)
}

// selfPlayGame plays one game from a random FlipSight opening (8 random
// moves, then 0..randomMax more) at a fixed depth with s, never solving,
// and returns the positions searched.
func selfPlayGame(rng *rand.Rand, depth, randomMax int, s *Searcher8, start pos8) []pos8 {
	s.exactEmpties = 0
	pos := start
	nRandom := 8 + rng.IntN(randomMax+1)
	var out []pos8
	for ply := 0; ; ply++ {
		m := s.moves(pos)
		if m.IsZero() {
			if s.moves(pos.pass()).IsZero() {
				return out
			}
			pos = pos.pass()
			continue
		}
		if ply < nRandom {
			for range rng.IntN(m.Count()) {
				m.Pop()
			}
			pos = s.play(pos, m.Pop())
			continue
		}
		out = append(out, pos)
		pos = s.play(pos, searchTo(s, pos, depth).move)
	}
}

// selfPlaySet returns n anti positions with the given empties from
// depth-4 self-play games (fixed seed), for benchmarks broader than one
// position: single solve times swing with small ordering changes.
func selfPlaySet(n, empties int) []pos8 {
	rng := rand.New(rand.NewPCG(7, uint64(empties)))
	s := NewSearcher8(antiRules, 18)
	var out []pos8
	for len(out) < n {
		for _, pos := range selfPlayGame(rng, 4, 6, s, start8) {
			if s.empties(pos) == empties {
				out = append(out, pos)
				break
			}
		}
	}
	return out
}

// benchSet runs search on every anti position of set from a cold table
// (one op = the whole set) and reports nodes and CPU seconds per op.
func benchSet(b *testing.B, set []pos8, search func(s *Searcher8, pos pos8) rootResult) {
	s := NewSearcher8(antiRules, 20)
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

// BenchmarkMidgameNodes measures search speed on a random 8×8 midgame
// position at 40 empties (depth 9, cold table) and a 10×10 one at 70
// empties (depth 7).
func BenchmarkMidgameNodes(b *testing.B) {
	report := func(b *testing.B, search func() uint64) {
		var nodes uint64
		cpu0 := cpuTime()
		for b.Loop() {
			nodes += search()
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		b.ReportMetric(float64(nodes)/(cpuTime()-cpu0).Seconds(), "nodes/cpu-s")
	}
	for _, v := range variants8 {
		b.Run(v.name, func(b *testing.B) {
			s := NewSearcher8(v.rules, 18)
			pos := randomPos8(rand.New(rand.NewPCG(4, 4)), s, v.start, 40)
			report(b, func() uint64 {
				clear(s.tt)
				return s.searchRoot(context.Background(), pos, legalOf8(s, pos), 0, time.Time{}, 9).nodes
			})
		})
	}
	for _, v := range variants10 {
		b.Run(v.name, func(b *testing.B) {
			s := NewSearcher10(v.rules, 18)
			pos := randomPos10(rand.New(rand.NewPCG(4, 4)), s, 70)
			report(b, func() uint64 {
				clear(s.tt)
				return s.searchRoot(context.Background(), pos, legalOf10(s, pos), 0, time.Time{}, 7).nodes
			})
		})
	}
}

// BenchmarkMidgameSet searches 24 anti self-play midgame positions (8
// each at 44, 36 and 28 empties) to a fixed depth from a cold table; one
// op is the whole set. OTHELLO_DEPTH overrides the depth (default 10).
func BenchmarkMidgameSet(b *testing.B) {
	depth := 10
	if d, err := strconv.Atoi(os.Getenv("OTHELLO_DEPTH")); err == nil && d > 0 {
		depth = d
	}
	var set []pos8
	for _, e := range []int{44, 36, 28} {
		set = append(set, selfPlaySet(8, e)...)
	}
	benchSet(b, set, func(s *Searcher8, pos pos8) rootResult { return searchTo(s, pos, depth) })
}

// BenchmarkEndgameSet18 solves 10 anti self-play positions at 18
// empties, each from a cold table (one op = the whole set; anti solves
// take longer than std ones: 20 empties cost about 2 CPU-s each).
func BenchmarkEndgameSet18(b *testing.B) {
	benchSet(b, selfPlaySet(10, 18), func(s *Searcher8, pos pos8) rootResult {
		res := searchTo(s, pos, 64)
		if !res.exact && s.moves(pos).Count() > 1 { // a forced move is not searched
			b.Fatalf("not solved exactly: depth %d", res.depth)
		}
		return res
	})
}

// BenchmarkEndgameSet24 solves 6 anti self-play positions at 24 empties
// (OTHELLO_EMPTIES: 12–30), each from a cold table (one op = the whole
// set): the empties where the clock decides whether the root can solve.
func BenchmarkEndgameSet24(b *testing.B) {
	n, e := 6, 24
	if v, err := strconv.Atoi(os.Getenv("OTHELLO_EMPTIES")); err == nil && v >= 12 && v <= 30 {
		e = v
	}
	benchSet(b, selfPlaySet(n, e), func(s *Searcher8, pos pos8) rootResult {
		s.exactEmpties = e // as the engine does when the clock allows it
		res := searchTo(s, pos, 64)
		if !res.exact && s.moves(pos).Count() > 1 {
			b.Fatalf("not solved exactly: depth %d", res.depth)
		}
		return res
	})
}

// BenchmarkPerft counts leaves from the start: anti to depth 8, grand to
// depth 6 (the move generators the searcher runs on).
func BenchmarkPerft(b *testing.B) {
	report := func(b *testing.B, perft func() uint64) {
		var n uint64
		cpu0 := cpuTime()
		for b.Loop() {
			n += perft()
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
		b.ReportMetric(float64(n)/(cpuTime()-cpu0).Seconds(), "leaves/cpu-s")
	}
	b.Run("anti", func(b *testing.B) {
		s := NewSearcher8(antiRules, 10)
		report(b, func() uint64 { return perft8(s, start8, 8) })
	})
	b.Run("grand", func(b *testing.B) {
		s := NewSearcher10(grandRules, 10)
		report(b, func() uint64 { return perft10(s, start10, 6) })
	})
}
