package stdengine

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"sync/atomic"
	"time"

	"github.com/botarena/gamebot/othello/bitboard"
)

// Selectivity: a ProbCut margin in standard deviations of the error model
// per level; SelExact searches without ProbCut.
var selT = [...]float64{1.0, 1.2, 1.5, 2.0, 2.6}

// SelExact is the selectivity of a search without ProbCut.
const SelExact = len(selT)

// Search constants; the measurements behind them are in the tests'
// benchmarks (BenchmarkMidgame, BenchmarkEndgame).
const (
	mpcMinDepth     = 3  // ProbCut from this depth
	etcMinDepth     = 5  // midgame enhanced transposition cutoff from this depth
	sortSearchDepth = 6  // from this depth, moves are ordered by a shallow search
	endTTEmpties    = 8  // the endgame uses the table from this many empties
	endETCEmpties   = 11 // … and enhanced transposition cutoffs from here
	endSortEval     = 13 // … orders by a shallow search (an evaluation below 18) from here: not below featEmpties
	endMPCEmpties   = 14 // … cuts by ProbCut from here (selective solves)
	smallEmpties    = 5  // up to this the endgame needs no move generator
	featEmpties     = 13 // features are kept up to date down to this many empties
)

// The endgame's ordering evaluates positions of endSortEval-1 empties
// from features kept down to featEmpties.
const _ = uint(endSortEval - featEmpties)

// Without are the parts of the search switched off, to measure what each
// brings (othello-engine -without); the zero value is the full engine.
type Without struct {
	ETC         bool // enhanced transposition cutoffs
	Stability   bool // stability cutoffs
	SortSearch  bool // ordering by a shallow search (moves are then ordered by mobility alone)
	Incremental bool // pattern indices updated move by move (they are then rebuilt at every evaluation)
}

// ParseWithout reads a comma-separated list of the parts to switch off
// (etc, stability, sort-search, incremental), as the engine's -without
// flag and the benchmarks' OTHELLO_WITHOUT give it.
func ParseWithout(list string) (Without, error) {
	var o Without
	for _, part := range strings.Split(list, ",") {
		switch strings.TrimSpace(part) {
		case "":
		case "etc":
			o.ETC = true
		case "stability":
			o.Stability = true
		case "sort-search":
			o.SortSearch = true
		case "incremental":
			o.Incremental = true
		default:
			return Without{}, fmt.Errorf("unknown part %q (etc, stability, sort-search, incremental)", part)
		}
	}
	return o, nil
}

// Searcher owns one search at a time: the table is kept across moves.
type Searcher struct {
	without   Without
	model     *Model
	anti      bool // the model's game is the misère one
	tt        *table
	feat      [64]Features // features per ply from the root
	nodes     uint64
	nextCheck uint64 // the node count of the next checkTime
	sel       int
	// margins are the ProbCut margins of the error model per selectivity.
	margins *marginTable

	ctx      context.Context
	deadline time.Time
	aborted  bool

	rootBuf []rootMove // the root moves, kept between searches
	plan    []iter     // the root's iterations, kept between searches

	// A parallel search's helpers (parallel.go), made on first use and
	// kept with the searcher; they share its table.
	helpers []*Searcher
	par     parallelState
	roots   []rootMove     // a helper's own copy of the root moves
	stop    *atomic.Bool   // a helper's: the main searcher is done
	busy    *busyTable     // in a parallel search: the children being searched
	busyTab *busyTable     // the main searcher's, made on first use
	main    *parallelState // the main searcher's, in a parallel search
}

// NewSearcher returns a searcher with a table of 2^ttBits entries (24
// bytes each) evaluating with model.
func NewSearcher(model *Model, ttBits uint) *Searcher {
	return &Searcher{model: model, anti: model.Misere, tt: newTable(ttBits), sel: SelExact, margins: model.errors().margins()}
}

// Misere reports whether the searcher plays the misère game (anti).
func (s *Searcher) Misere() bool { return s.anti }

// SetWithout switches parts of the search off.
func (s *Searcher) SetWithout(w Without) { s.without = w }

// Clear forgets the table.
func (s *Searcher) Clear() { s.tt.clear() }

func count(b uint64) int { return bits.OnesCount64(b) }

// final is the score of a finished game for the side to move: discs
// against discs (FlipSight counts no empty square), the other way round
// in the misère game (anti).
func (s *Searcher) final(p, o uint64) int {
	if s.anti {
		return count(o) - count(p)
	}
	return count(p) - count(o)
}

// opposing returns the discs whose stability bounds the mover's score
// from above: the opponent's (each is a disc lost), the mover's own in the
// misère game.
func (s *Searcher) opposing(p, o uint64) (uint64, uint64) {
	if s.anti {
		return p, o
	}
	return o, p
}

func (s *Searcher) checkTime() {
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.aborted = true
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		s.aborted = true
	}
	if s.stop != nil && s.stop.Load() {
		s.aborted = true
	}
	if s.main != nil && s.main.ahead.Load() >= s.main.mainAt.Load() {
		s.aborted = true // a helper completed this iteration first
	}
}

// checkEvery is how many nodes a searcher counts between two looks at its
// clock, context and helpers (a few hundred microseconds).
const checkEvery = 4096

// tick counts a node and checks the clock every checkEvery nodes. The
// leaves count themselves without a tick, so the next check is due at a
// count rather than at a multiple, which ticks would mostly step over.
func (s *Searcher) tick() bool {
	s.nodes++
	if s.nodes >= s.nextCheck {
		s.nextCheck = s.nodes + checkEvery
		s.checkTime()
	}
	return s.aborted
}

// toDiscs rounds an evaluation to discs, inside ±64.
func toDiscs(v int) int {
	if v >= 0 {
		v = (v + EvalScale/2) / EvalScale
	} else {
		v = -((-v + EvalScale/2) / EvalScale)
	}
	return max(-64, min(64, v))
}

// evalAt is the static evaluation (discs) of the position at ply, whose
// mover's moves are pm.
func (s *Searcher) evalAt(ply int, p, o uint64, white bool, pm uint64) int {
	empty := ^(p | o)
	mob := 0
	if s.model.mobility || pm == 0 {
		om := bitboard.Moves(o, p)
		if pm == 0 && om == 0 {
			return s.final(p, o)
		}
		mob = count(pm) - count(om)
	}
	return toDiscs(s.model.eval(s.features(ply, p, o, white), white, count(empty), count(p), mob, bitboard.Potential(o, empty), bitboard.Potential(p, empty)))
}

// features are the indices of the position at ply: those kept up to date
// move by move, or (Without.Incremental) read off the board again.
func (s *Searcher) features(ply int, p, o uint64, white bool) *Features {
	if s.without.Incremental {
		b, w := p, o
		if white {
			b, w = o, p
		}
		s.feat[ply] = s.model.lay.featuresOf(b, w)
	}
	return &s.feat[ply]
}

// child writes the features of the position after sq (flipping f) at
// ply+1.
func (s *Searcher) child(ply, sq int, f uint64, white bool) {
	s.feat[ply+1] = s.feat[ply]
	s.model.lay.update(&s.feat[ply+1], sq, f, white)
}

// move is a candidate move with its flips and ordering value.
type move struct {
	sq    int
	flips uint64
	score int32
}

// search is a fail-soft principal-variation search of depth plies (a pass
// uses none) at the searcher's selectivity; depth ≥ empties solves.
func (s *Searcher) search(p, o uint64, ply int, white bool, alpha, beta, depth int) int {
	if s.tick() {
		return 0
	}
	empties := 64 - count(p|o)
	if depth >= empties {
		return s.endgame(p, o, ply, white, alpha, beta, empties)
	}
	pm := bitboard.Moves(p, o)
	if pm == 0 {
		if bitboard.Moves(o, p) == 0 {
			return s.final(p, o)
		}
		return -s.search(o, p, ply, !white, -beta, -alpha, depth)
	}
	switch depth {
	case 0:
		return s.evalAt(ply, p, o, white, pm)
	case 1:
		return s.search1(p, o, ply, white, alpha, beta, pm)
	case 2:
		return s.search2(p, o, ply, white, alpha, beta, pm)
	}
	pv := beta-alpha > 1
	// Stability: the opponent's stable discs bound the score from above
	// (a cheap count first: only then are they worth finding).
	if them, us := s.opposing(p, o); alpha >= 64-2*count(them) && !s.without.Stability {
		if bound := 64 - 2*count(bitboard.Stable(them, us)); bound <= alpha {
			return bound
		}
	}
	hashMove := noMove
	if e, ok := s.tt.probe(p, o); ok {
		hashMove = int(e.move)
		if int(e.depth) >= depth && int(e.sel) >= s.sel {
			lo, hi := int(e.lower), int(e.upper)
			if lo >= beta || lo == hi {
				return lo
			}
			if hi <= alpha {
				return hi
			}
		}
	}
	if !pv && s.sel < SelExact && depth >= mpcMinDepth {
		if v, ok := s.probcut(p, o, ply, white, alpha, depth, empties, pm); ok {
			return v
		}
	}
	var buf [32]move
	list := movesBuf(&buf, pm)
	k, cut, cv := s.orderMid(p, o, ply, white, pm, hashMove, depth, beta, list)
	if cut {
		return cv
	}
	list = list[:k]
	if s.busy != nil && depth >= busyMinDepth {
		best, bestSq := s.movesShared(p, o, ply, white, alpha, beta, depth, false, list)
		if s.aborted {
			return 0
		}
		s.tt.store(p, o, depth, s.sel, alpha, beta, best, bestSq)
		return best
	}
	best, bestSq := -65, noMove
	a := alpha
	for i := range list {
		mv := &list[i]
		cp, co := o&^mv.flips, p|mv.flips|1<<uint(mv.sq)
		s.child(ply, mv.sq, mv.flips, white)
		var v int
		if i == 0 {
			v = -s.search(cp, co, ply+1, !white, -beta, -a, depth-1)
		} else {
			v = -s.search(cp, co, ply+1, !white, -a-1, -a, depth-1)
			if v > a && v < beta && !s.aborted {
				v = -s.search(cp, co, ply+1, !white, -beta, -a, depth-1)
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
	s.tt.store(p, o, depth, s.sel, alpha, beta, best, bestSq)
	return best
}

// search1 is search at depth 1: each child evaluated as it is made, no
// table, no ordering.
func (s *Searcher) search1(p, o uint64, ply int, white bool, alpha, beta int, pm uint64) int {
	best := -65
	empties := 63 - count(p|o) // the children's
	for m := pm; m != 0; m &= m - 1 {
		sq := trailing(m)
		f := bitboard.Flips(sq, p, o)
		cp, co := o&^f, p|f|1<<uint(sq)
		s.child(ply, sq, f, white)
		s.nodes++
		var v int
		mob, over := 0, false
		if s.model.mobility {
			// The only place a leaf needs both sides' moves; a model
			// without mobility evaluates the leaf without any (a leaf with
			// no moves left is evaluated like the others, as in Edax).
			cm, om := bitboard.Moves(cp, co), bitboard.Moves(co, cp)
			mob, over = count(cm)-count(om), cm == 0 && om == 0
		}
		if over {
			v = -s.final(cp, co)
		} else {
			empty := ^(cp | co)
			v = -toDiscs(s.model.eval(s.features(ply+1, cp, co, !white), !white, empties, count(cp), mob, bitboard.Potential(co, empty), bitboard.Potential(cp, empty)))
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

// search2 is search at depth 2: children in square-value order, no table.
func (s *Searcher) search2(p, o uint64, ply int, white bool, alpha, beta int, pm uint64) int {
	var buf [32]move
	list := buf[:0]
	for m := pm; m != 0; m &= m - 1 {
		sq := trailing(m)
		list = append(list, move{sq: sq, score: squareValue[sq]})
	}
	sortMoves(list)
	best := -65
	a := alpha
	for i := range list {
		sq := list[i].sq
		f := bitboard.Flips(sq, p, o)
		cp, co := o&^f, p|f|1<<uint(sq)
		s.child(ply, sq, f, white)
		s.nodes++
		var v int
		if cm := bitboard.Moves(cp, co); cm != 0 {
			v = -s.search1(cp, co, ply+1, !white, -beta, -a, cm)
		} else {
			v = -s.search(cp, co, ply+1, !white, -beta, -a, 1)
		}
		if v > best {
			best = v
			if v > a {
				a = v
				if a >= beta {
					break
				}
			}
		}
	}
	return best
}

// squareValue orders moves where nothing better is known: corners first,
// X and C squares last.
var squareValue = func() (v [64]int32) {
	t := [64]int32{
		18, 4, 16, 12, 12, 16, 4, 18,
		4, 2, 6, 8, 8, 6, 2, 4,
		16, 6, 14, 10, 10, 14, 6, 16,
		12, 8, 10, 0, 0, 10, 8, 12,
		12, 8, 10, 0, 0, 10, 8, 12,
		16, 6, 14, 10, 10, 14, 6, 16,
		4, 2, 6, 8, 8, 6, 2, 4,
		18, 4, 16, 12, 12, 16, 4, 18,
	}
	return t
}()

// movesBuf is the list for a node's moves pm: buf (on the caller's stack),
// or a new one for more moves than it holds (no reachable position is
// known to have more than 33).
func movesBuf(buf *[32]move, pm uint64) []move {
	if n := count(pm); n > len(buf) {
		return make([]move, n)
	}
	return buf[:]
}

// sortMoves sorts by descending score (insertion sort: lists are short).
func sortMoves(list []move) {
	for i := 1; i < len(list); i++ {
		x := list[i]
		j := i
		for j > 0 && list[j-1].score < x.score {
			list[j] = list[j-1]
			j--
		}
		list[j] = x
	}
}

const corners = 0x8100000000000081

// orderMid writes the moves of a midgame node into list (movesBuf) best
// first and returns how many: the table's move, then by a shallow search
// (deep nodes) or the opponent's mobility and potential mobility. On the
// way it tries the enhanced transposition cutoff: a child whose table
// bound already refutes the node (true, and its value). It returns a
// count, not the list, so that the caller's array stays on its stack.
func (s *Searcher) orderMid(p, o uint64, ply int, white bool, pm uint64, hashMove, depth, beta int, list []move) (int, bool, int) {
	k := 0
	etc := depth >= etcMinDepth && !s.without.ETC
	sd := -1 // shallow search depth for ordering (−1: none)
	if depth >= sortSearchDepth && !s.without.SortSearch {
		sd = min((depth-sortSearchDepth)/3, 3)
	}
	for m := pm; m != 0; m &= m - 1 {
		sq := trailing(m)
		f := bitboard.Flips(sq, p, o)
		cp, co := o&^f, p|f|1<<uint(sq)
		if etc {
			if e, ok := s.tt.probe(cp, co); ok && int(e.depth) >= depth-1 && int(e.sel) >= s.sel && -int(e.upper) >= beta {
				v := -int(e.upper)
				s.tt.store(p, o, depth, s.sel, beta-1, beta, v, sq)
				return 0, true, v
			}
		}
		var sc int32
		if sq == hashMove {
			sc = 1 << 30
		} else {
			cm := bitboard.Moves(cp, co)
			sc = squareValue[sq] - 256*int32(count(cm)+count(cm&corners)) - 32*int32(bitboard.Potential(co, ^(cp|co)))
			if sd >= 0 {
				s.child(ply, sq, f, white)
				var v int
				if sd == 0 {
					v = s.evalAt(ply+1, cp, co, !white, cm)
				} else {
					v = s.search(cp, co, ply+1, !white, -64, 64, sd)
				}
				sc -= int32(v) * 512
			}
		}
		list[k] = move{sq: sq, flips: f, score: sc}
		k++
	}
	sortMoves(list[:k])
	return k, false, 0
}
