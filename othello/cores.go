package othello

import (
	"context"
	"slices"
	"sync"
)

// Cores shares a machine's cores among the engines searching on it at the
// same time: the FlipSight connector gives one to the engines of all its
// legs. A search always takes a core for its main searcher (a move is due
// whatever the machine does) and as many more for helpers as are free,
// up to what it asks; a search that starts when none is free calls back
// the helpers of the oldest search that has some, which stop within a
// millisecond or so and leave their cores to it. So a leg
// searches on both cores of a two-core machine while our other leg waits
// for the opponent, and on one while both legs search. A search keeps
// the threads it started with, less those called back; cores freed in
// the middle of a search go to the next one, or to a waiting ponder. A
// ponder (Engine.Ponder) borrows only a free core, waiting for one if
// need be, and gives it back to the first search that wants it, before
// any helper of another search is called back.
type Cores struct {
	mu    sync.Mutex
	n     int
	used  int           // cores taken: each search's main searcher and its helpers
	loans []*loan       // the searches holding helper cores, oldest first
	freed chan struct{} // closed when cores are given back: ponders wait on it
	stats CoreStats
}

// loan is one search's helper cores, or a ponder's core.
type loan struct {
	cores  int
	cancel context.CancelFunc // calls the helpers back
	ponder bool
}

// CoreStats say what a Cores did.
type CoreStats struct {
	Searches       int // searches started
	Helped         int // … with helpers
	CalledBack     int // searches whose helpers were called back
	Peak           int // most cores taken at once
	Used           int // cores taken now
	Ponders        int // ponders that found a free core
	PondersStopped int // … stopped because a search wanted it
}

// lend gives a ponder a core no search is using, as a loan the next search
// that wants it calls back (the context is then done), waiting for one
// while every core is taken. It returns false when ctx ends first;
// release, once the ponder is done.
func (c *Cores) lend(ctx context.Context) (context.Context, func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.used >= c.n || ctx.Err() != nil {
		if ctx.Err() != nil {
			return nil, nil, false
		}
		if c.freed == nil {
			c.freed = make(chan struct{})
		}
		freed := c.freed
		c.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
		}
		c.mu.Lock()
	}
	lent, cancel := context.WithCancel(context.Background())
	l := &loan{cores: 1, cancel: cancel, ponder: true}
	c.loans = append(c.loans, l)
	c.used++
	c.stats.Ponders++
	c.stats.Peak = max(c.stats.Peak, c.used)
	return lent, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if i := slices.Index(c.loans, l); i >= 0 {
			c.loans = slices.Delete(c.loans, i, i+1)
			c.release(l.cores)
		}
		l.cancel()
	}, true
}

// release gives n cores back and wakes the ponders waiting for one; c.mu
// is held.
func (c *Cores) release(n int) {
	c.used -= n
	if c.freed != nil {
		close(c.freed)
		c.freed = nil
	}
}

// NewCores returns a Cores of n cores (at least 1).
func NewCores(n int) *Cores { return &Cores{n: max(n, 1)} }

// Stats returns what c did so far.
func (c *Cores) Stats() CoreStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Used = c.used
	return s
}

// take starts a search that asks for up to want threads. It returns how
// many it has (at least 1), the context that calls its helpers back (nil
// without helpers), and release, to call once the search is done.
func (c *Cores) take(want int) (int, context.Context, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Searches++
	// A ponder gives its core to any search that wants it, helpers
	// included: a move due now is worth more than a guess at the next.
	for i := 0; i < len(c.loans) && c.n-c.used < want; {
		if l := c.loans[i]; l.ponder {
			c.loans = slices.Delete(c.loans, i, i+1)
			c.used -= l.cores
			l.cancel()
			c.stats.PondersStopped++
			continue
		}
		i++
	}
	if c.used >= c.n && len(c.loans) > 0 {
		l := c.loans[0]
		c.loans = c.loans[1:]
		c.used -= l.cores
		l.cancel()
		c.stats.CalledBack++
	}
	c.used++
	threads := 1
	var l *loan
	var helpers context.Context
	if extra := min(want-1, c.n-c.used); extra > 0 {
		var cancel context.CancelFunc
		helpers, cancel = context.WithCancel(context.Background())
		l = &loan{cores: extra, cancel: cancel}
		c.loans = append(c.loans, l)
		c.used += extra
		threads += extra
		c.stats.Helped++
	}
	c.stats.Peak = max(c.stats.Peak, c.used)
	return threads, helpers, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.release(1)
		if l == nil {
			return
		}
		if i := slices.Index(c.loans, l); i >= 0 { // not called back
			c.loans = slices.Delete(c.loans, i, i+1)
			c.release(l.cores)
		}
		l.cancel()
	}
}
