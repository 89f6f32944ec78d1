package othello

import (
	"context"
	"math/rand/v2"
	"time"
)

// selfPlayGame plays one std game from a random FlipSight opening (8
// random moves, then 0..randomMax more) at a fixed depth with s, never
// solving, and returns the positions searched (mover, opponent). The test
// sets and benchmarks draw their positions from it; othello/train plays
// its games through the engine instead.
func selfPlayGame(rng *rand.Rand, depth, randomMax int, s *searcher8) []pos8 {
	s.exactEmpties = 0
	pos := pos8{p: bits8(1<<28 | 1<<35), o: bits8(1<<27 | 1<<36)} // black to move
	nRandom := 8 + rng.IntN(randomMax+1)
	var out []pos8
	for ply := 0; ; ply++ {
		m := s.moves(pos)
		if m.isZero() {
			if s.moves(pos.pass()).isZero() {
				return out
			}
			pos = pos.pass()
			continue
		}
		if ply < nRandom {
			for range rng.IntN(m.count()) {
				m.pop()
			}
			pos = s.play(pos, m.pop())
			continue
		}
		var legal []int
		for mm := m; !mm.isZero(); {
			legal = append(legal, mm.pop())
		}
		out = append(out, pos)
		res := s.searchRoot(context.Background(), pos, legal, 0, time.Time{}, depth)
		pos = s.play(pos, res.move)
	}
}
