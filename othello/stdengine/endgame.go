package stdengine

import "github.com/botarena/gamebot/othello/bitboard"

// The endgame: the exact final score within a window (or, below SelExact,
// a probable one: ProbCut against shallow midgame searches), from the
// table, fastest-first ordering (fewest opponent replies), parity, the
// stability cutoff and enhanced transposition cutoffs; the last empties
// without move generation.

// quadrants are the four 4×4 regions, for parity ordering.
var quadrants = [4]uint64{0x000000000f0f0f0f, 0x00000000f0f0f0f0, 0x0f0f0f0f00000000, 0xf0f0f0f000000000}

// quadrantOf[sq] is the quadrant mask of a square.
var quadrantOf = func() (q [64]uint64) {
	for sq := range 64 {
		for _, m := range quadrants {
			if m>>uint(sq)&1 != 0 {
				q[sq] = m
			}
		}
	}
	return q
}()

// endgame solves a position with empties ≥ 1 within the fail-soft window.
func (s *Searcher) endgame(p, o uint64, ply int, white bool, alpha, beta, empties int) int {
	if empties <= smallEmpties {
		return s.solveSmall(p, o, alpha, beta, empties, false)
	}
	if s.tick() {
		return 0
	}
	pm := bitboard.Moves(p, o)
	if pm == 0 {
		if bitboard.Moves(o, p) == 0 {
			return s.final(p, o)
		}
		return -s.endgameM(o, p, ply, !white, -beta, -alpha, empties, bitboard.Moves(o, p))
	}
	return s.endgameM(p, o, ply, white, alpha, beta, empties, pm)
}

// endgameM is endgame for a position whose moves pm (non-empty) are known.
func (s *Searcher) endgameM(p, o uint64, ply int, white bool, alpha, beta, empties int, pm uint64) int {
	// Stability: the opponent's stable discs bound the score from above.
	if them, us := s.opposing(p, o); alpha >= 64-2*count(them) && !s.without.Stability {
		if bound := 64 - 2*count(bitboard.Stable(them, us)); bound <= alpha {
			return bound
		}
	}
	hashMove := noMove
	useTT := empties >= endTTEmpties
	if useTT {
		if e, ok := s.tt.probe(p, o); ok {
			hashMove = int(e.move)
			if int(e.depth) >= empties && int(e.sel) >= s.sel {
				lo, hi := int(e.lower), int(e.upper)
				if lo >= beta || lo == hi {
					return lo
				}
				if hi <= alpha {
					return hi
				}
				alpha, beta = max(alpha, lo), min(beta, hi)
			}
		}
	}
	if s.sel < SelExact && empties >= endMPCEmpties && beta == alpha+1 {
		if v, ok := s.probcut(p, o, ply, white, alpha, empties, empties, pm); ok {
			return v
		}
	}
	var buf [32]move
	list := movesBuf(&buf, pm)
	k, cut, cv := s.orderEnd(p, o, ply, white, pm, hashMove, empties, beta, list)
	if cut {
		return cv
	}
	list = list[:k]
	if s.busy != nil && empties >= busyMinEmpties {
		best, bestSq := s.movesShared(p, o, ply, white, alpha, beta, empties, true, list)
		if s.aborted {
			return 0
		}
		s.tt.store(p, o, empties, s.sel, alpha, beta, best, bestSq)
		return best
	}
	feat := empties-1 >= featEmpties
	best, bestSq := -65, noMove
	a := alpha
	for i := range list {
		mv := &list[i]
		cp, co := o&^mv.flips, p|mv.flips|1<<uint(mv.sq)
		if feat {
			s.child(ply, mv.sq, mv.flips, white)
		}
		var v int
		if i == 0 {
			v = -s.endgame(cp, co, ply+1, !white, -beta, -a, empties-1)
		} else {
			v = -s.endgame(cp, co, ply+1, !white, -a-1, -a, empties-1)
			if v > a && v < beta && !s.aborted {
				v = -s.endgame(cp, co, ply+1, !white, -beta, -a, empties-1)
			}
		}
		if s.aborted {
			return 0
		}
		if v > best {
			best, bestSq = v, mv.sq
			if v > a {
				a = v
				if a >= beta {
					break
				}
			}
		}
	}
	if useTT {
		s.tt.store(p, o, empties, s.sel, alpha, beta, best, bestSq)
	}
	return best
}

// orderEnd writes an endgame node's moves into list (movesBuf) in order
// and returns how many: the table's move, then fastest first (fewest
// opponent replies, corners counting double, little potential mobility),
// a bonus for a move into an odd region, and from endSortEval empties a
// shallow search. It tries enhanced transposition cutoffs on the way, as
// orderMid does.
func (s *Searcher) orderEnd(p, o uint64, ply int, white bool, pm uint64, hashMove, empties, beta int, list []move) (int, bool, int) {
	k := 0
	etc := empties >= endETCEmpties && !s.without.ETC
	empty := ^(p | o)
	sd := -1
	if empties >= endSortEval && !s.without.SortSearch {
		sd = 0
		if empties >= 20 {
			sd = 2
		} else if empties >= 18 {
			sd = 1
		}
	}
	for m := pm; m != 0; m &= m - 1 {
		sq := trailing(m)
		f := bitboard.Flips(sq, p, o)
		cp, co := o&^f, p|f|1<<uint(sq)
		if etc {
			if e, ok := s.tt.probe(cp, co); ok && int(e.depth) >= empties-1 && int(e.sel) >= s.sel && -int(e.upper) >= beta {
				v := -int(e.upper)
				s.tt.store(p, o, empties, s.sel, beta-1, beta, v, sq)
				return 0, true, v
			}
		}
		var sc int32
		if sq == hashMove {
			sc = 1 << 30
		} else {
			cm := bitboard.Moves(cp, co)
			sc = squareValue[sq] - 256*int32(count(cm)+count(cm&corners)) - 16*int32(bitboard.Potential(co, ^(cp|co)))
			if count(empty&quadrantOf[sq])&1 == 1 {
				sc += 64
			}
			if sd >= 0 {
				s.child(ply, sq, f, white)
				var v int
				if sd == 0 {
					v = s.evalAt(ply+1, cp, co, !white, cm)
				} else {
					saved := s.sel
					s.sel = SelExact
					v = s.search(cp, co, ply+1, !white, -64, 64, sd)
					s.sel = saved
				}
				sc -= int32(v) * 128
			}
		}
		list[k] = move{sq: sq, flips: f, score: sc}
		k++
	}
	sortMoves(list[:k])
	return k, false, 0
}

// lastMove is the final score with one empty square sq left.
func (s *Searcher) lastMove(p, o uint64, sq int) int {
	pc := count(p)
	v := 2*pc - 63
	if n := bitboard.LastFlipCount(sq, p); n > 0 {
		v = 2*(pc+n) - 62
	} else if n := bitboard.LastFlipCount(sq, o); n > 0 {
		v = 2*(pc-n) - 64
	}
	if s.anti {
		return -v
	}
	return v
}

// lastTwo is the best score of the side to move's moves on the last two
// empty squares a and b (fail-soft: it stops once beta is reached); ok is
// false when neither is legal.
func (s *Searcher) lastTwo(p, o uint64, a, b int, beta int) (int, bool) {
	best := -65
	if o&bitboard.NeighbourOf(a) != 0 {
		if f := bitboard.Flips(a, p, o); f != 0 {
			s.nodes++
			if best = -s.lastMove(o&^f, p|f|1<<uint(a), b); best >= beta {
				return best, true
			}
		}
	}
	if o&bitboard.NeighbourOf(b) != 0 {
		if f := bitboard.Flips(b, p, o); f != 0 {
			s.nodes++
			best = max(best, -s.lastMove(o&^f, p|f|1<<uint(b), a))
		}
	}
	return best, best > -65
}

// solveSmall solves the last few empties: no table, no move generation
// (each empty square is tried directly), odd regions first.
func (s *Searcher) solveSmall(p, o uint64, alpha, beta, empties int, passed bool) int {
	empty := ^(p | o)
	s.nodes++
	if empties == 1 {
		return s.lastMove(p, o, trailing(empty))
	}
	if empties == 2 {
		a := trailing(empty)
		b := trailing(empty & (empty - 1))
		if v, ok := s.lastTwo(p, o, a, b, beta); ok {
			return v
		}
		if v, ok := s.lastTwo(o, p, a, b, -alpha); ok {
			return -v
		}
		return s.final(p, o)
	}
	var sqs [smallEmpties]int
	var keys [smallEmpties]int32
	n := 0
	for e := empty; e != 0; e &= e - 1 {
		sq := trailing(e)
		k := squareValue[sq]
		if count(empty&quadrantOf[sq])&1 == 1 {
			k += 1000
		}
		j := n
		for j > 0 && keys[j-1] < k {
			sqs[j], keys[j] = sqs[j-1], keys[j-1]
			j--
		}
		sqs[j], keys[j] = sq, k
		n++
	}
	best := -65
	for _, sq := range sqs[:n] {
		if o&bitboard.NeighbourOf(sq) == 0 {
			continue
		}
		f := bitboard.Flips(sq, p, o)
		if f == 0 {
			continue
		}
		v := -s.solveSmall(o&^f, p|f|1<<uint(sq), -beta, -alpha, empties-1, false)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					return best
				}
			}
		}
	}
	if best == -65 { // no move
		if passed {
			return s.final(p, o)
		}
		return -s.solveSmall(o, p, -beta, -alpha, empties, true)
	}
	return best
}
