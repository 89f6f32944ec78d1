package variants

// This file and solve8.go (the exact solver) are the templates of
// search10_gen.go and solve10_gen.go: gensearch renames every identifier
// ending in 8 to end in 10 (bits8 → bits10, pos8 → pos10, Searcher8 →
// Searcher10, …). Board-specific primitives (moves, play, hashing, the
// square sets) live in the hand-written board files of each size.

import (
	"context"
	"time"
)

// ttEntry8 is one transposition-table slot. lower/upper bound the score
// (scaled units) of pos searched to depth; depth exactDepth+empties means
// searched to the end of the game (so that, within a search, exact results
// with more empties keep their slot).
type ttEntry8 struct {
	pos          pos8
	lower, upper int16
	depth        int16
	move         int16
	gen          uint16
}

// Searcher8 searches 8×8 games, one search at a time: the transposition
// table is reused across moves; everything else is reset per move.
type Searcher8 struct {
	anti      bool
	reversi   bool
	maxPlaced int16 // classic Reversi: a side that has placed this many discs has no move
	playable  bits8
	nPlay     int
	tt        []ttEntry8
	ttMask    uint64
	gen       uint16
	nodes     uint64
	ctx       context.Context
	deadline  time.Time
	aborted   bool
	history   [numSq8]int32

	rules        Rules
	ready        bool
	exactEmpties int // the root tries an exact solve from this many empties
	sqv          [numSq8]int
	quadrant     [numSq8]int
	nbr          [numSq8]bits8 // the squares around each square
	quadrants    [4]bits8
	lines        [4][]bits8 // the board's lines per direction (rows, columns, diagonals)
	lineOf       [4][numSq8]int
	edge         [4]bits8 // squares with an edge or blocked square on that line direction
	anchors      []anchor8
	anchorMask   bits8 // the anchors' squares
}

// anchor8 is a square that cannot be flipped once taken, with its
// neighbours (dangerous to take while it is empty).
type anchor8 struct {
	sq         int
	diag, orth bits8
}

// SetRules prepares the searcher for a game: playable squares, anchors and
// square values. The table is kept when the rules are those it last
// searched.
func (s *Searcher8) SetRules(r Rules) {
	if !s.ready || !s.rules.same(r) {
		clear(s.tt) // scores of one game mean nothing in another
	}
	s.rules, s.ready = r.clone(), true
	s.anti, s.reversi, s.maxPlaced = r.Misere, r.Reversi, int16(r.MaxPlaced)
	g := newGeometry(boardSize8, r)
	var pl bits8
	for sq, b := range g.blocked {
		if !b {
			pl = pl.Or(bit8(sq))
		}
	}
	s.playable, s.nPlay = pl, pl.Count()
	var none bits8
	s.anchors, s.anchorMask = s.anchors[:0], none
	for i, a := range g.anchors {
		an := anchor8{sq: a}
		for _, n := range g.diag[i] {
			an.diag = an.diag.Or(bit8(n))
		}
		for _, n := range g.orth[i] {
			an.orth = an.orth.Or(bit8(n))
		}
		s.anchors = append(s.anchors, an)
		s.anchorMask = s.anchorMask.Or(bit8(a))
	}
	copy(s.sqv[:], g.sqv)
	size := boardSize8
	s.quadrants = [4]bits8{}
	for sq := range size * size {
		q := 0
		if sq/size >= size/2 {
			q += 2
		}
		if sq%size >= size/2 {
			q++
		}
		s.quadrant[sq] = q
		s.nbr[sq] = s.neighbours(bit8(sq))
		s.quadrants[q] = s.quadrants[q].Or(bit8(sq))
	}
	s.edge = [4]bits8{}
	for d := range 4 {
		s.lines[d] = s.lines[d][:0]
		for i, ln := range g.lines[d] {
			var m bits8
			for _, sq := range ln {
				m = m.Or(bit8(sq))
				s.lineOf[d][sq] = i
			}
			s.lines[d] = append(s.lines[d], m)
		}
		for _, sq := range g.edge[d] {
			s.edge[d] = s.edge[d].Or(bit8(sq))
		}
	}
}

// stable returns discs of own that can never be flipped: on each of the
// four lines through them the line is full, or a neighbour on it is an
// edge, a blocked square or a stable disc of the same colour.
func (s *Searcher8) stable(own, occ bits8) bits8 {
	var full [4]bits8
	for d := range 4 {
		for _, ln := range s.lines[d] {
			if occ.And(ln) == ln {
				full[d] = full[d].Or(ln)
			}
		}
	}
	var st bits8
	for {
		var ok [4]bits8
		for d := range 4 {
			ok[d] = full[d].Or(s.edge[d]).Or(s.lineNeighbours(st, d))
		}
		next := own.And(ok[0]).And(ok[1]).And(ok[2]).And(ok[3])
		if next == st {
			return st
		}
		st = next
	}
}

func (s *Searcher8) squareValue(sq int) int { return s.sqv[sq] }

// eval is the static evaluation (scaled: discScale per disc) of pos for the
// side to move, whose moves pm are already known: mobility, frontier
// (potential mobility), anchors (corners), the squares next to empty
// anchors, parity and, late, discs. Anti uses the same features with the
// signs that favour few stable discs.
func (s *Searcher8) eval(pos pos8, pm bits8) int {
	om := s.moves(pos.pass())
	mp, mo := pm.Count(), om.Count()
	occ := pos.p.Or(pos.o)
	empty := s.playable.AndNot(occ)
	adj := s.neighbours(empty)
	fp, fo := pos.p.And(adj).Count(), pos.o.And(adj).Count()
	var ap, ao, xp, xo, cp, co int
	for i := range s.anchors {
		a := &s.anchors[i]
		switch {
		case pos.p.Has(a.sq):
			ap++
		case pos.o.Has(a.sq):
			ao++
		default:
			xp += pos.p.And(a.diag).Count()
			xo += pos.o.And(a.diag).Count()
			cp += pos.p.And(a.orth).Count()
			co += pos.o.And(a.orth).Count()
		}
	}
	empties := empty.Count()
	discs := pos.p.Count() - pos.o.Count()
	parity := 0
	if empties%2 == 1 {
		parity = 30
	}
	// Mobility matters most in the midgame; it is scaled so that a move
	// is worth about 0.7 discs early on.
	mob := 70 * (mp - mo)
	if mp+mo > 0 {
		mob += 400 * (mp - mo) / (mp + mo + 2)
	}
	var v int
	if !s.anti {
		v = mob + 35*(fo-fp) + 700*(ap-ao) + 220*(xo-xp) + 60*(co-cp) + parity
		if empties < 18 {
			v += discs * (18 - empties) * 4
		}
	} else {
		v = mob - 5*(fo-fp) - 600*(ap-ao) - 150*(xo-xp) - 40*(co-cp) + parity - discs*15
	}
	return max(-maxEval, min(maxEval, v))
}

// NewSearcher8 returns a searcher of 8×8 games played by r, with a table
// of 2^ttBits entries.
func NewSearcher8(r Rules, ttBits uint) *Searcher8 {
	s := &Searcher8{tt: make([]ttEntry8, 1<<ttBits), ttMask: 1<<ttBits - 1, exactEmpties: 20}
	s.SetRules(r)
	return s
}

type moveScore8 struct {
	sq    int
	score int
	child pos8
	moves bits8 // the child's moves, when known (solver)
}

// checkTime is called every few thousand nodes.
func (s *Searcher8) checkTime() {
	if s.aborted {
		return
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.aborted = true
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		s.aborted = true
	}
}

func (s *Searcher8) probe(pos pos8) *ttEntry8 {
	e := &s.tt[pos.hash()&s.ttMask]
	if e.pos == pos && e.depth > 0 {
		return e
	}
	return nil
}

func (s *Searcher8) store(pos pos8, depth, alpha, beta, score, move int) {
	e := &s.tt[pos.hash()&s.ttMask]
	if e.pos != pos && e.gen == s.gen && int(e.depth) > depth {
		return
	}
	if e.pos == pos && int(e.depth) >= exactDepth && depth < exactDepth {
		return // a search to a depth knows less than the solver's bounds
	}
	lo, hi := -infScore, infScore
	if e.pos == pos && int(e.depth) == depth {
		lo, hi = int(e.lower), int(e.upper)
	}
	switch {
	case score <= alpha:
		hi = score
	case score >= beta:
		lo = score
	default:
		lo, hi = score, score
	}
	if lo > hi {
		lo, hi = score, score
	}
	*e = ttEntry8{pos: pos, lower: int16(lo), upper: int16(hi), depth: int16(depth), move: int16(move), gen: s.gen}
}

// final is the exact score of a finished game for the side to move.
func (s *Searcher8) final(pos pos8) int {
	d := pos.p.Count() - pos.o.Count()
	if s.anti {
		d = -d
	}
	return d * discScale
}

// orderMoves fills list with the moves of m and their children, best first:
// the hash move, then (when deep enough) fewest opponent replies, then the
// square table and history.
func (s *Searcher8) orderMoves(pos pos8, m bits8, hashMove int, deep bool, list []moveScore8) []moveScore8 {
	list = list[:0]
	for !m.IsZero() {
		sq := m.Pop()
		child := s.play(pos, sq)
		sc := int(s.history[sq]) + s.squareValue(sq)
		if deep {
			sc -= 64 * s.moves(child).Count()
			if s.anti {
				sc -= 16 * s.moves(child.pass()).Count()
			}
		}
		if sq == hashMove {
			sc = 1 << 30
		}
		list = append(list, moveScore8{sq: sq, score: sc, child: child})
	}
	for i := 1; i < len(list); i++ { // insertion sort, descending
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

// pvs is a fail-soft principal-variation search to depth plies; a pass does
// not use a ply. Positions with depth ≥ empties are solved exactly.
func (s *Searcher8) pvs(pos pos8, depth, alpha, beta int) int {
	s.nodes++
	if s.nodes&1023 == 0 {
		s.checkTime()
	}
	if s.aborted {
		return 0
	}
	empties := s.empties(pos)
	if depth >= empties || empties <= 2 {
		return s.solve(pos, alpha, beta, empties)
	}
	m := s.moves(pos)
	if m.IsZero() {
		if s.moves(pos.pass()).IsZero() {
			return s.final(pos)
		}
		return -s.pvs(pos.pass(), depth, -beta, -alpha)
	}
	if depth <= 0 {
		return s.eval(pos, m)
	}
	if depth == 1 {
		return s.pvs1(pos, m, alpha, beta)
	}
	hashMove := -1
	if e := s.probe(pos); e != nil {
		hashMove = int(e.move)
		if int(e.depth) >= depth {
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
		}
	}
	var buf [maxMoves8]moveScore8
	list := s.orderMoves(pos, m, hashMove, depth >= 2, buf[:0])
	best, bestSq := -infScore, list[0].sq
	a := alpha
	for i := range list {
		var v int
		if i == 0 {
			v = -s.pvs(list[i].child, depth-1, -beta, -a)
		} else {
			v = -s.pvs(list[i].child, depth-1, -a-1, -a)
			if v > a && v < beta && !s.aborted {
				v = -s.pvs(list[i].child, depth-1, -beta, -a)
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
					s.history[bestSq] += int32(depth * depth)
					break
				}
			}
		}
	}
	s.store(pos, depth, alpha, beta, best, bestSq)
	return best
}

// pvs1 is pvs at depth 1 for a position whose moves m are known: no
// table and no sort (anchors first, then square order), each child
// evaluated as it is generated. A probe, a sort and a call per child cost
// more here than the cutoffs they buy (with mobility ordering from depth
// 2, MidgameSet at depth 12 takes 3.0 CPU-s instead of 4.1, for 10% more
// nodes).
func (s *Searcher8) pvs1(pos pos8, m bits8, alpha, beta int) int {
	best := -infScore
	first := m.And(s.anchorMask)
	m = m.AndNot(first)
	for !first.IsZero() || !m.IsZero() {
		var sq int
		if !first.IsZero() {
			sq = first.Pop()
		} else {
			sq = m.Pop()
		}
		child := s.play(pos, sq)
		var v int
		if cm := s.moves(child); cm.IsZero() || s.empties(child) <= 2 {
			v = -s.pvs(child, 0, -beta, -max(alpha, best))
		} else {
			s.nodes++
			if s.nodes&1023 == 0 {
				s.checkTime()
			}
			v = -s.eval(child, cm)
		}
		if v > best {
			best = v
			if v >= beta {
				break
			}
		}
	}
	return best
}

// searchRoot runs iterative deepening over the given root moves until the
// soft limit is used up (no new iteration starts after it) or the deadline
// hits (the running iteration is abandoned). maxDepth caps the depth.
func (s *Searcher8) searchRoot(ctx context.Context, pos pos8, rootMoves []int, soft time.Duration, deadline time.Time, maxDepth int) rootResult {
	start := time.Now()
	s.ctx, s.deadline, s.aborted, s.nodes = ctx, deadline, false, 0
	s.gen++
	for i := range s.history {
		s.history[i] /= 8
	}
	type rm struct {
		sq    int
		child pos8
		score int
	}
	roots := make([]rm, len(rootMoves))
	for i, sq := range rootMoves {
		roots[i] = rm{sq: sq, child: s.play(pos, sq), score: -infScore}
	}
	// Initial order: fewest opponent replies.
	for i := range roots {
		roots[i].score = -s.moves(roots[i].child).Count()*64 + s.squareValue(roots[i].sq)
	}
	sortRoots := func() {
		for i := 1; i < len(roots); i++ {
			x := roots[i]
			j := i
			for j > 0 && roots[j-1].score < x.score {
				roots[j] = roots[j-1]
				j--
			}
			roots[j] = x
		}
	}
	sortRoots()
	res := rootResult{move: roots[0].sq, score: 0}
	if len(roots) == 1 {
		res.score = s.eval(pos, s.moves(pos))
		return res
	}
	empties := s.empties(pos)
	for depth := 1; depth <= maxDepth; depth++ {
		// Solve once a midgame iteration of depth 10 is in hand: if the
		// solve runs out of time, that is the move played.
		if depth > rootSolveAfter && depth < empties && empties <= s.exactEmpties && empties <= maxDepth {
			depth = empties
		}
		best, bestSq := -infScore, -1
		lo, hi := -infScore, infScore
		if depth >= 3 && res.depth > 0 {
			w := aspiration
			if depth >= empties {
				w = 2 * aspiration
			}
			lo, hi = res.score-w, res.score+w
		}
		for {
			alpha, beta := lo, hi
			best, bestSq = -infScore, -1
			for i := range roots {
				var v int
				if i == 0 {
					v = -s.pvs(roots[i].child, depth-1, -beta, -alpha)
				} else {
					v = -s.pvs(roots[i].child, depth-1, -alpha-1, -alpha)
					if v > alpha && v < beta && !s.aborted {
						v = -s.pvs(roots[i].child, depth-1, -beta, -alpha)
					}
				}
				if s.aborted {
					break
				}
				roots[i].score = v
				if v > best {
					best, bestSq = v, roots[i].sq
					alpha = max(alpha, v)
					if v >= beta {
						break
					}
				} else {
					roots[i].score = v - 1 // keep the found order among weaker moves
				}
			}
			if s.aborted {
				break
			}
			switch {
			case best <= lo && lo > -infScore:
				lo = -infScore // fail low: every move is worse than hoped
				sortRoots()
			case best >= hi && hi < infScore:
				hi = infScore
				sortRoots()
			default:
				goto done
			}
		}
	done:
		if s.aborted {
			// A move proved better than the last iteration's choice in the
			// unfinished iteration is still better information.
			if bestSq >= 0 && bestSq != res.move && best > res.score && res.depth > 0 {
				res.move, res.score = bestSq, best
			}
			break
		}
		sortRoots()
		res.move, res.score, res.depth = bestSq, best, depth
		if depth >= empties {
			res.exact = true
			break
		}
		if soft > 0 && time.Since(start) > soft*6/10 {
			break
		}
	}
	res.nodes = s.nodes
	return res
}
