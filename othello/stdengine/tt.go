package stdengine

// The transposition table: buckets of two entries, one preferring depth
// and one always replaced, keyed by the full position. An entry remembers
// the selectivity its bounds were found at, so that a probable result
// never answers a search that asks for more certainty.

type ttEntry struct {
	p, o         uint64
	lower, upper int8  // bounds of the score (discs)
	depth        uint8 // plies searched (≥ empties: to the end)
	sel          uint8 // selectivity (SelExact: no ProbCut below)
	move         uint8 // best move, or noMove
	gen          uint8 // search generation that wrote it
}

const noMove = 255

type table struct {
	e    []ttEntry
	mask uint64
	gen  uint8
}

func newTable(bits uint) *table {
	return &table{e: make([]ttEntry, 1<<bits), mask: 1<<bits - 2}
}

func hash(p, o uint64) uint64 {
	h := p*0x9E3779B97F4A7C15 ^ (o*0xC2B2AE3D27D4EB4F)<<31 ^ (o*0xC2B2AE3D27D4EB4F)>>33
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// probe returns the entry of p, o or nil.
func (t *table) probe(p, o uint64) *ttEntry {
	i := hash(p, o) & t.mask
	if e := &t.e[i]; e.p == p && e.o == o {
		return e
	}
	if e := &t.e[i+1]; e.p == p && e.o == o {
		return e
	}
	return nil
}

// store records a fail-soft result v of a search of (alpha, beta) to
// depth at selectivity sel.
func (t *table) store(p, o uint64, depth, sel, alpha, beta, v, move int) {
	i := hash(p, o) & t.mask
	e0, e1 := &t.e[i], &t.e[i+1]
	var e *ttEntry
	switch {
	case e0.p == p && e0.o == o:
		e = e0
	case e1.p == p && e1.o == o:
		e = e1
	case e0.gen != t.gen || int(e0.depth) <= depth:
		// The depth-preferred slot takes a deeper (or current) result; its
		// old content moves to the always-replaced slot.
		*e1 = *e0
		e = e0
		e.p, e.o = p, o
		e.depth, e.sel, e.lower, e.upper = 0, 0, -64, 64
	default:
		e = e1
		e.p, e.o = p, o
		e.depth, e.sel, e.lower, e.upper = 0, 0, -64, 64
	}
	d, s := uint8(depth), uint8(sel)
	switch {
	case d == e.depth && s == e.sel: // same search: narrow the bounds
	case d > e.depth || d == e.depth && s > e.sel:
		e.lower, e.upper = -64, 64
	default: // keep what a deeper or surer search found
		if move != noMove && e.move == noMove {
			e.move = uint8(move)
		}
		return
	}
	e.depth, e.sel, e.gen = d, s, t.gen
	switch {
	case v <= alpha:
		e.upper = int8(min(int(e.upper), v))
	case v >= beta:
		e.lower = int8(max(int(e.lower), v))
	default:
		e.lower, e.upper = int8(v), int8(v)
	}
	if e.lower > e.upper { // contradicts an older bound at the same depth
		if v <= alpha {
			e.lower = -64
		} else {
			e.upper = 64
		}
	}
	if move != noMove {
		e.move = uint8(move)
	}
}

func (t *table) clear() {
	clear(t.e)
	t.gen = 0
}
