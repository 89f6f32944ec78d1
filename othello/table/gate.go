package table

import (
	"context"
	"time"
)

// gate is a leg's match.Gate: an engine's move waits for the pace (so
// that a person can follow) and, in a watched match paused by its
// creator, for a step; it thinks in one of the hub's slots when it is
// ours, in process. A person's moves wait for nothing but the person.
type gate struct {
	t *Table
	l *leg
}

// Ask implements match.Gate.
func (g gate) Ask(ctx context.Context, c int, ask func()) error {
	s := g.l.seats[c-1]
	if s.seat != 0 {
		g.t.thinking(g.l)
		ask()
		return nil
	}
	if err := g.t.paced(ctx); err != nil {
		return err
	}
	think := func() {
		g.t.thinking(g.l) // the pace and the wait for a slot are not the engine's time
		ask()
	}
	if s.kind == "engine" {
		return g.t.env.Decide(ctx, think)
	}
	think()
	return nil
}

// Play implements match.Gate: in a paused watched match, a move found
// (its search was running when the pause came) is held until a step,
// which it takes, so that paused boards do not change and a step is one
// move.
func (g gate) Play(ctx context.Context, c int) error {
	if g.l.seats[c-1].seat != 0 {
		return nil
	}
	for {
		g.t.mu.Lock()
		if !g.t.s.watch || !g.t.paused {
			g.t.mu.Unlock()
			return nil
		}
		if g.t.steps > 0 {
			g.t.steps--
			g.t.mu.Unlock()
			return nil
		}
		wake := g.t.wake
		g.t.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// paced waits for the pace and, while a watched match is paused without
// a step granted, for a step or the resume (the step itself is taken
// when the move is played).
func (t *Table) paced(ctx context.Context) error {
	paced := false
	for {
		t.mu.Lock()
		hold := t.s.watch && t.paused && t.steps == 0
		pace, wake := t.pace, t.wake
		t.mu.Unlock()
		if paced && !hold {
			return nil
		}
		var timer <-chan time.Time
		if !hold {
			if pace <= 0 {
				return ctx.Err()
			}
			tm := time.NewTimer(pace)
			defer tm.Stop()
			timer = tm.C
		}
		select {
		case <-timer:
			paced = true
		case <-wake: // paused, stepped, or a new pace: it applies at once
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// thinking starts the clock of the side to move of leg l.
func (t *Table) thinking(l *leg) {
	t.mu.Lock()
	l.turnAt = time.Now()
	t.mu.Unlock()
}

// changeControls applies f to the watch controls and wakes the gates.
// Called with t.mu held.
func (t *Table) changeControls(f func()) {
	f()
	close(t.wake)
	t.wake = make(chan struct{})
}
