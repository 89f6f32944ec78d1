package stdengine

import "sync/atomic"

// The transposition table: buckets of two entries, one preferring depth
// and one always replaced, keyed by the full position. An entry remembers
// the selectivity its bounds were found at, so that a probable result
// never answers a search that asks for more certainty.
//
// An entry is three words: the data word d (bounds, depth, selectivity,
// move, generation) and the position's two bitboards each XOR'd with d
// (Hyatt's lockless hashing, over the full position). The searchers of a
// parallel search share one table and read and write its words with
// atomic loads and stores, no lock. An entry torn by two writers (words of
// both) reads as a miss: two writes of the same position decode to it
// only if they carried the same data, and words of two other positions
// would have to XOR to exactly the 128 bits asked for; the position is
// compared whole, so there is no hash collision either. A search on one
// goroutine reads and writes the same words plainly (shared false): the
// table behaves the same either way, only the access differs, so a search
// alone finds exactly what it found with the table of plain fields, at
// its speed (atomic stores cost it about 3% on FFO #40).

// ttEntry is an entry's data.
type ttEntry struct {
	lower, upper int8  // bounds of the score (discs)
	depth        uint8 // plies searched (≥ empties: to the end)
	sel          uint8 // selectivity (SelExact: no ProbCut below)
	move         uint8 // best move, or noMove
	gen          uint8 // search generation that wrote it
}

// pack and unpack lay the data out in a word: lower, upper, depth, sel,
// move and gen, a byte each from the low end.
func (e ttEntry) pack() uint64 {
	return uint64(uint8(e.lower)) | uint64(uint8(e.upper))<<8 | uint64(e.depth)<<16 |
		uint64(e.sel)<<24 | uint64(e.move)<<32 | uint64(e.gen)<<40
}

func unpack(d uint64) ttEntry {
	return ttEntry{lower: int8(d), upper: int8(d >> 8), depth: uint8(d >> 16), sel: uint8(d >> 24), move: uint8(d >> 32), gen: uint8(d >> 40)}
}

const noMove = 255

// slot is an entry's words: p^d, o^d, d.
type slot [3]uint64

type table struct {
	e    []slot
	mask uint64
	gen  uint8
	// shared: searchers on several goroutines use the table now, so its
	// words are read and written atomically. Set and cleared only while
	// no search runs on it.
	shared bool
}

func newTable(bits uint) *table {
	return &table{e: make([]slot, 1<<bits), mask: 1<<bits - 2}
}

func hash(p, o uint64) uint64 {
	h := p*0x9E3779B97F4A7C15 ^ (o*0xC2B2AE3D27D4EB4F)<<31 ^ (o*0xC2B2AE3D27D4EB4F)>>33
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// load returns the position and the data word of entry i.
func (t *table) load(i uint64) (p, o, d uint64) {
	w := &t.e[i]
	if t.shared {
		d = atomic.LoadUint64(&w[2])
		return atomic.LoadUint64(&w[0]) ^ d, atomic.LoadUint64(&w[1]) ^ d, d
	}
	d = w[2]
	return w[0] ^ d, w[1] ^ d, d
}

// put writes entry i.
func (t *table) put(i, p, o, d uint64) {
	w := &t.e[i]
	if t.shared {
		atomic.StoreUint64(&w[0], p^d)
		atomic.StoreUint64(&w[1], o^d)
		atomic.StoreUint64(&w[2], d)
		return
	}
	w[0], w[1], w[2] = p^d, o^d, d
}

// probe returns the entry of p, o, if there is one.
func (t *table) probe(p, o uint64) (ttEntry, bool) {
	i := hash(p, o) & t.mask
	if ep, eo, d := t.load(i); ep == p && eo == o {
		return unpack(d), true
	}
	if ep, eo, d := t.load(i + 1); ep == p && eo == o {
		return unpack(d), true
	}
	return ttEntry{}, false
}

// store records a fail-soft result v of a search of (alpha, beta) to
// depth at selectivity sel.
func (t *table) store(p, o uint64, depth, sel, alpha, beta, v, move int) {
	i := hash(p, o) & t.mask
	var e ttEntry
	p0, o0, d0 := t.load(i)
	if p0 == p && o0 == o {
		e = unpack(d0)
	} else if p1, o1, d1 := t.load(i + 1); p1 == p && o1 == o {
		e, i = unpack(d1), i+1
	} else {
		// The depth-preferred slot takes a deeper (or current) result; its
		// old content moves to the always-replaced slot. A new entry keeps
		// the slot's old move and generation until they are written below.
		if e0 := unpack(d0); e0.gen != t.gen || int(e0.depth) <= depth {
			t.put(i+1, p0, o0, d0)
			e = e0
		} else {
			e, i = unpack(d1), i+1
		}
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
			t.put(i, p, o, e.pack())
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
	t.put(i, p, o, e.pack())
}

func (t *table) clear() {
	clear(t.e)
	t.gen = 0
}
