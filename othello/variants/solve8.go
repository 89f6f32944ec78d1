package variants

// The exact endgame solver of Searcher8: the template of solve10_gen.go
// (see search8.go).

// solveChild solves a child from the move list (its moves are known).
func (s *Searcher8) solveChild(c *moveScore8, alpha, beta, empties int) int {
	if empties <= shallowEmpties {
		return s.solveSmall(c.child, alpha, beta, empties, false)
	}
	s.nodes++
	if s.nodes&1023 == 0 {
		s.checkTime()
	}
	if s.aborted {
		return 0
	}
	return s.solveM(c.child, c.moves, alpha, beta, empties)
}

// orderSolve orders moves for the exact solver: the hash move, then
// fastest first (fewest opponent replies, anchors counting double), with
// the square table breaking ties.
func (s *Searcher8) orderSolve(pos pos8, m bits8, hashMove int, list []moveScore8) []moveScore8 {
	list = list[:0]
	empty := s.playable.AndNot(pos.p.Or(pos.o))
	for !m.IsZero() {
		sq := m.Pop()
		child := s.play(pos, sq)
		om := s.moves(child)
		sc := s.squareValue(sq) - 256*om.Count()
		for i := range s.anchors {
			if om.Has(s.anchors[i].sq) {
				sc -= 256
			}
		}
		// Potential mobility: the opponent's empty squares next to my discs.
		sc -= 32 * s.neighbours(child.o).AndNot(child.p.Or(child.o)).And(s.playable).Count()
		if empty.And(s.quadrants[s.quadrant[sq]]).Count()%2 == 1 {
			sc += parityBonus
		}
		if sq == hashMove {
			sc = 1 << 30
		}
		list = append(list, moveScore8{sq: sq, score: sc, child: child, moves: om})
	}
	for i := 1; i < len(list); i++ {
		x := list[i]
		j := i
		for j > 0 && list[j-1].score < x.score {
			list[j] = list[j-1]
			j--
		}
		list[j] = x
	}
	return list
}

// solve returns the exact final score (scaled) of pos within the fail-soft
// window (alpha, beta).
func (s *Searcher8) solve(pos pos8, alpha, beta, empties int) int {
	if empties <= shallowEmpties {
		return s.solveSmall(pos, alpha, beta, empties, false)
	}
	s.nodes++
	if s.nodes&1023 == 0 {
		s.checkTime()
	}
	if s.aborted {
		return 0
	}
	return s.solveM(pos, s.moves(pos), alpha, beta, empties)
}

// solveM is solve for a position whose moves m are known.
func (s *Searcher8) solveM(pos pos8, m bits8, alpha, beta, empties int) int {
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			return s.final(pos)
		}
		return -s.solve(pos.pass(), -beta, -alpha, empties)
	}
	if empties >= stabilityEmpties && alpha > 0 {
		// Upper bound from the opponent's stable discs.
		them := pos.o
		if s.anti {
			them = pos.p
		}
		bound := (s.nPlay - 2*s.stable(them, pos.p.Or(pos.o)).Count()) * discScale
		if bound <= alpha {
			return bound
		}
	}
	hashMove := -1
	useTT := empties >= ttEmpties
	if useTT {
		if e := s.probe(pos); e != nil {
			if e.depth >= exactDepth {
				// Only exact results order the solver: a shallow search's
				// best move orders worse than fastest-first.
				hashMove = int(e.move)
				lo, hi := int(e.lower), int(e.upper)
				if lo >= beta {
					return lo
				}
				if hi <= alpha {
					return hi
				}
				if lo == hi {
					return lo
				}
				alpha = max(alpha, lo)
				beta = min(beta, hi)
			}
		}
	}
	var buf [maxMoves8]moveScore8
	list := s.orderSolve(pos, m, hashMove, buf[:0])
	if useTT && empties >= etcEmpties {
		// Enhanced transposition cutoff: a child already known to be bad
		// enough for the opponent refutes this node at once.
		for i := range list {
			if e := s.probe(list[i].child); e != nil && e.depth >= exactDepth && -int(e.upper) >= beta {
				v := -int(e.upper)
				s.store(pos, exactDepth+empties, alpha, beta, v, list[i].sq)
				return v
			}
		}
	}
	best, bestSq := -infScore, list[0].sq
	a := alpha
	for i := range list {
		var v int
		c := &list[i]
		if i == 0 {
			v = -s.solveChild(c, -beta, -a, empties-1)
		} else {
			v = -s.solveChild(c, -a-1, -a, empties-1)
			if v > a && v < beta && !s.aborted {
				v = -s.solveChild(c, -beta, -a, empties-1)
			}
		}
		if s.aborted {
			return 0
		}
		if v > best {
			best, bestSq = v, list[i].sq
			if v > a {
				a = v
				if a >= beta {
					break
				}
			}
		}
	}
	if useTT {
		s.store(pos, exactDepth+empties, alpha, beta, best, bestSq)
	}
	return best
}

// score is the scaled final score for the side to move holding mine
// discs against theirs.
func (s *Searcher8) score(mine, theirs int) int {
	if s.anti {
		return (theirs - mine) * discScale
	}
	return (mine - theirs) * discScale
}

// lastMove scores the game with one empty square left.
func (s *Searcher8) lastMove(pos pos8, empty bits8) int {
	s.nodes++
	sq := empty.Pop()
	pc, oc := pos.p.Count(), pos.o.Count()
	if !s.reversi || pos.pp < s.maxPlaced {
		if f := flips8(sq, pos.p, pos.o); !f.IsZero() {
			n := f.Count()
			return s.score(pc+n+1, oc-n)
		}
	}
	if !s.reversi || pos.op < s.maxPlaced {
		if f := flips8(sq, pos.o, pos.p); !f.IsZero() {
			n := f.Count()
			return s.score(pc-n, oc+n+1)
		}
	}
	return s.score(pc, oc)
}

// lastTwo is the best score of the side to move's moves on the last two
// empty squares a and b (fail-soft: it stops once beta is reached); ok is
// false when neither is legal.
func (s *Searcher8) lastTwo(pos pos8, a, b int, beta int) (int, bool) {
	if s.reversi && pos.pp >= s.maxPlaced {
		return 0, false
	}
	best := -infScore // unrolled over a then b: this is the hottest node type
	if !pos.o.And(s.nbr[a]).IsZero() {
		if f := flips8(a, pos.p, pos.o); !f.IsZero() {
			if best = -s.lastMove(pos.after(a, f), bit8(b)); best >= beta {
				return best, true
			}
		}
	}
	if !pos.o.And(s.nbr[b]).IsZero() {
		if f := flips8(b, pos.p, pos.o); !f.IsZero() {
			best = max(best, -s.lastMove(pos.after(b, f), bit8(a)))
		}
	}
	return best, best > -infScore
}

// solveSmall solves the last few empties: no table, no move generation
// (each empty square is tried directly), parity order.
func (s *Searcher8) solveSmall(pos pos8, alpha, beta, empties int, passed bool) int {
	empty := s.playable.AndNot(pos.p.Or(pos.o))
	if empties == 1 {
		return s.lastMove(pos, empty)
	}
	s.nodes++
	if empties == 2 {
		a := empty.Pop()
		b := empty.Pop()
		if v, ok := s.lastTwo(pos, a, b, beta); ok {
			return v
		}
		if v, ok := s.lastTwo(pos.pass(), a, b, -alpha); ok {
			return -v
		}
		return s.final(pos)
	}
	var sqs [shallowEmpties]int
	var keys [shallowEmpties]int
	var odd [4]bool
	for q := range odd {
		odd[q] = empty.And(s.quadrants[q]).Count()%2 == 1
	}
	n := 0
	for e := empty; !e.IsZero(); {
		sq := e.Pop()
		k := s.squareValue(sq)
		if odd[s.quadrant[sq]] {
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
	best := -infScore
	if !s.reversi || pos.pp < s.maxPlaced {
		for _, sq := range sqs[:n] {
			if pos.o.And(s.nbr[sq]).IsZero() {
				continue
			}
			f := flips8(sq, pos.p, pos.o)
			if f.IsZero() {
				continue
			}
			v := -s.solveSmall(pos.after(sq, f), -beta, -alpha, empties-1, false)
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
	}
	if best == -infScore { // no move
		if passed {
			return -s.final(pos.pass())
		}
		return -s.solveSmall(pos.pass(), -beta, -alpha, empties, true)
	}
	return best
}
