package battleship

import (
	"sync"
)

// memory is what the bot remembers of its opponents, per opponent name (as
// the arena sends it) and board size, learnt only from the histories the
// arena sends: where the opponent shoots while it hunts (placement avoids
// it), and how often our shots at each cell hit compared with what the
// shooter expected (the shooting prior). Every table fades by a constant
// factor per game, so an opponent that changes its habits is followed.
//
// It is bounded: at most maxEntries opponents and maxCells table cells in
// all; beyond either, the least recently used opponents are forgotten. It
// is safe for concurrent use.
type memory struct {
	mu         sync.Mutex
	maxEntries int
	maxCells   int
	cells      int
	clock      uint64
	entries    map[string]*oppEntry
}

// oppEntry is one opponent on one board size.
type oppEntry struct {
	cells int
	games float32 // games started, faded like the tables
	// heat is the opponent's hunting shots, each weighted by how early in
	// the game it came (placement keeps ships away from it).
	heat []float32
	// hits and expect are, per cell, our shots that hit and the sum of the
	// probabilities the shooter gave those shots before seeing them (the
	// shooting prior is their ratio).
	hits, expect []float32
	used         uint64
}

// Memory tuning. A game fades the heat by heatFade and the hit statistics
// by priorFade; priorPseudo is the pseudo-count (in expected hits) that
// keeps the prior near 1 until evidence accumulates; priorMaxP excludes
// shots the shooter was nearly sure of (they say little about placement).
const (
	heatFade    = 0.93
	priorFade   = 0.97
	priorPseudo = 1.5
	priorMaxP   = 0.6
	priorMin    = 0.1
	priorMax    = 10.0
	priorNear   = 0.5
)

func newMemory(maxEntries, maxCells int) *memory {
	return &memory{maxEntries: maxEntries, maxCells: maxCells, entries: make(map[string]*oppEntry)}
}

// entry returns key's entry, creating it (and evicting others) if needed.
// The caller holds the lock.
func (m *memory) entry(key string, r Rules, create bool) *oppEntry {
	m.clock++
	e := m.entries[key]
	if e != nil && e.cells != r.Cells() { // cannot happen: the key has the size
		m.drop(key)
		e = nil
	}
	if e == nil {
		if !create || r.Cells() > m.maxCells {
			return nil
		}
		for len(m.entries) > 0 && (len(m.entries) >= m.maxEntries || m.cells+r.Cells() > m.maxCells) {
			m.evict()
		}
		n := r.Cells()
		buf := make([]float32, 3*n)
		e = &oppEntry{cells: n, heat: buf[:n:n], hits: buf[n : 2*n : 2*n], expect: buf[2*n:]}
		m.entries[key] = e
		m.cells += n
	}
	e.used = m.clock
	return e
}

func (m *memory) drop(key string) {
	if e := m.entries[key]; e != nil {
		m.cells -= e.cells
		delete(m.entries, key)
	}
}

func (m *memory) evict() {
	var oldest string
	var at uint64
	first := true
	for k, e := range m.entries {
		if first || e.used < at {
			oldest, at, first = k, e.used, false
		}
	}
	m.drop(oldest)
}

// startGame fades key's tables by one game (a game starts with init).
func (m *memory) startGame(key string, r Rules) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entry(key, r, true)
	if e == nil {
		return
	}
	hf, pf := float32(heatFade), float32(priorFade)
	e.games = e.games*hf + 1
	for c := range e.heat {
		e.heat[c] *= hf
		e.hits[c] *= pf
		e.expect[c] *= pf
	}
}

// huntWindow is how many of the opponent's first shots count as its
// opening: about a third of the board (33 on 10x10).
func huntWindow(r Rules) int { return max(1, r.Cells()/3) }

// observeHis records the newest of the opponent's shots (each is newest in
// exactly one play-turn of a game) if it is in the opening and not next to
// one of its earlier hits (a shot finishing a ship of ours says where our
// ship was, not where it looks first).
func (m *memory) observeHis(key string, r Rules, his []Strike) {
	k := len(his) - 1
	win := huntWindow(r)
	if k < 0 || k >= win {
		return
	}
	s := his[k]
	if !s.OK || s.X < 0 || s.Y < 0 || s.X >= r.W || s.Y >= r.H {
		return
	}
	if !hunting(his[:k], s.X, s.Y) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.entry(key, r, true); e != nil {
		e.heat[s.Y*r.W+s.X] += float32(win-k) / float32(win)
	}
}

// observeOurs records one of our shots: whether it hit, and the
// probability the shooter gave it without any prior.
func (m *memory) observeOurs(key string, r Rules, c int, hit bool, p0 float64) {
	if p0 < 0 || p0 > priorMaxP || c < 0 || c >= r.Cells() {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.entry(key, r, true); e != nil {
		if hit {
			e.hits[c]++
		}
		e.expect[c] += float32(p0)
	}
}

// prior returns, per cell, how much likelier the opponent's ships are there
// than the shooter expects (hits over expected hits, both with a
// pseudo-count, so 1 until evidence accumulates), or nil if nothing is
// known.
func (m *memory) prior(key string, r Rules, into []float64) []float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entry(key, r, false)
	if e == nil {
		return nil
	}
	into = grow(into, e.cells)
	w, h := r.W, r.H
	for y := range h {
		for x := range w {
			// Neighbouring cells pool their evidence (placements that
			// avoid or favour a region do so smoothly): weight 1 for the
			// cell, priorNear for its 4 neighbours, priorNear² diagonally.
			var o, ex float64
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					k := 1.0
					if dx != 0 {
						k *= priorNear
					}
					if dy != 0 {
						k *= priorNear
					}
					o += k * float64(e.hits[ny*w+nx])
					ex += k * float64(e.expect[ny*w+nx])
				}
			}
			v := (o + priorPseudo) / (ex + priorPseudo)
			into[y*w+x] = min(priorMax, max(priorMin, v))
		}
	}
	return into
}

// heatMap returns the opponent's opening shots per cell, scaled so that 1
// is a cell shot first in every game, and the (faded) number of games it
// summarises; nil if nothing is known.
func (m *memory) heatMap(key string, r Rules) ([]float64, float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entry(key, r, false)
	if e == nil || e.games <= 0 {
		return nil, 0
	}
	out := make([]float64, e.cells)
	for c, v := range e.heat {
		out[c] = float64(v) / float64(e.games)
	}
	return out, float64(e.games)
}

// len reports how many opponents are held.
func (m *memory) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// predictions remembers, per history, the cell the shooter chose and the
// probability it gave it, until the next turn shows the result. Bounded:
// the oldest of predMax entries is overwritten.
type predictions struct {
	mu   sync.Mutex
	m    map[uint64]prediction
	ring []uint64
	next int
}

type prediction struct {
	cell int32
	p0   float32
}

const predMax = 4096

func (p *predictions) put(h uint64, v prediction) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = make(map[uint64]prediction, predMax)
		p.ring = make([]uint64, predMax)
	}
	if _, ok := p.m[h]; !ok {
		delete(p.m, p.ring[p.next])
		p.ring[p.next] = h
		p.next = (p.next + 1) % predMax
	}
	p.m[h] = v
}

func (p *predictions) take(h uint64) (prediction, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[h]
	if ok {
		delete(p.m, h)
	}
	return v, ok
}

// historyHash identifies a shot history of one game (seed) against one
// opponent (FNV-1a over the key, the seed and every strike).
func historyHash(key string, seed uint64, shots []Strike) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(key) {
		h = (h ^ uint64(key[i])) * 1099511628211
	}
	h = (h ^ seed) * 1099511628211
	for _, s := range shots {
		h = extendHash(h, s)
	}
	return h
}

func extendHash(h uint64, s Strike) uint64 {
	v := uint64(s.X)<<24 | uint64(s.Y)<<4 | uint64(s.Result)<<1
	if s.OK {
		v |= 1
	}
	for range 6 {
		h = (h ^ (v & 0xff)) * 1099511628211
		v >>= 8
	}
	return h
}

func iabs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
