package othello

import (
	"time"
)

// clockKey identifies one side's clock in one leg.
type clockKey struct {
	match int64
	leg   int
	color int
}

// clockObs remembers the previous request of a clock, to measure the time
// lost outside the search between two of our moves (connector, network,
// scheduling): remaining then, minus our search, minus remaining now.
type clockObs struct {
	remaining int64     // remaining_ms of the previous request
	used      int64     // ms our search took then
	at        time.Time // when it was answered
	overhead  float64   // moving average of the lost ms per move
	seen      int       // losses measured so far
}

// exactEmptiesFor is how many empties the root may try to solve exactly
// given the hard limit.
func exactEmptiesFor(hard time.Duration, size int) int {
	steps, n := exactSteps8, 12
	if size == 10 {
		steps, n = exactSteps10, 10
	}
	for _, st := range steps {
		if hard >= st.hard {
			return st.empties
		}
	}
	return n
}

// solveZone is the most empties exactEmptiesFor ever allows on a board.
func solveZone(size int) int {
	if size == 10 {
		return exactSteps10[0].empties
	}
	return exactSteps8[0].empties
}

// exactStep: from this hard limit on, solve from this many empties.
type exactStep struct {
	hard    time.Duration
	empties int
}

// exactSteps8: 20 empties take 0.2–0.8 s on one core from a cold table
// (FFO #40: 0.5 s, 12 M nodes; EndgameSet20: 0.33 s on average), each
// empty more about 2–3× (EndgameSet24: 18 s on average at 24 empties),
// but much less inside a game, where the table is warm: the first solves
// of 175 legs against NTest at 60 s clocks (with the older, smaller steps)
// took 0.8 s at 22 empties (median; 90% under 1.7 s), 1.1 s at 23 (3.1 s)
// and 1.2 s at 24 (2.6 s, 14 legs); with these steps, 24-empty solves
// took 3.3 s (median of 8 legs; at most 5.6 s) and none ran out of time.
// A solve that does not finish plays the depth-10 move.
var exactSteps8 = []exactStep{
	{7 * time.Second, 25}, {4500 * time.Millisecond, 24}, {3 * time.Second, 23},
	{2 * time.Second, 22}, {time.Second, 21}, {400 * time.Millisecond, 20}, {150 * time.Millisecond, 19},
	{50 * time.Millisecond, 17}, {20 * time.Millisecond, 15},
}

// exactSteps10: the 10×10 solver is slower per empty; these are the
// 8×8 steps measured before the 8×8 solver got faster, less two empties.
var exactSteps10 = []exactStep{
	{5 * time.Second, 19}, {2 * time.Second, 18}, {700 * time.Millisecond, 17},
	{250 * time.Millisecond, 16}, {80 * time.Millisecond, 14}, {20 * time.Millisecond, 12},
}

// Time management constants.
const (
	reserveMs  = 2000 // the connector's 750 ms margin plus 1.25 s of safety
	overheadMs = 60   // per own move left: time lost outside the search (I/O, network)
	minThinkMs = 5
)

// observe returns the per-move overhead (ms) to plan with for a clock:
// at least overheadMs, more when the clock has been losing time outside
// our searches. The first loss measured replaces the default outright: a
// connector that polls once a second loses about half a second per move,
// and easing into that over several moves spends the difference early.
func (e *Engine) observe(k clockKey, remaining int64) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	o := e.clocks[k]
	if o == nil || remaining > o.remaining || time.Since(o.at) > 10*time.Minute {
		return overheadMs
	}
	lost := max(float64(o.remaining-o.used-remaining), 0)
	if o.seen == 0 {
		o.overhead = lost
	} else {
		o.overhead = 0.6*o.overhead + 0.4*lost
	}
	o.seen++
	o.remaining = remaining // a second request at the same clock counts once
	o.used = 0
	return max(overheadMs, int64(o.overhead))
}

// record stores what a search used, for the next observe of the clock.
func (e *Engine) record(k clockKey, remaining int64, took time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.clocks == nil {
		e.clocks = map[clockKey]*clockObs{}
	}
	if len(e.clocks) > 1024 { // forget old clocks (finished games)
		for key, o := range e.clocks {
			if time.Since(o.at) > 10*time.Minute || len(e.clocks) > 4096 {
				delete(e.clocks, key)
			}
		}
	}
	o := e.clocks[k]
	if o == nil {
		o = &clockObs{overhead: overheadMs}
		e.clocks[k] = o
	}
	o.remaining, o.used, o.at = remaining, took.Milliseconds(), time.Now()
}

// timePlan turns the clock into a soft limit (no new iteration after 60% of
// it), a hard deadline, and the later deadline of an iteration that fails
// low (twice the hard one, within three quarters of the budget and half
// of what is usable; fixed-time play never extends). Both legs of a match
// run at once, and the connector kills the engine at budget_ms, so the
// limits stay well below both the budget and the remaining clock.
func (e *Engine) timePlan(p *Position, overhead int64) (soft, hard, failLow time.Duration) {
	rem, budget := p.RemainingMs, p.BudgetMs
	if budget <= 0 {
		budget = rem - 750
	}
	empties := 0
	for _, c := range p.State.Cells {
		if c == Empty {
			empties++
		}
	}
	empties -= len(p.State.Mode.Blocked())
	own := (empties + 1) / 2
	// Keep a reserve, and the time each remaining move costs outside the
	// search (process I/O, scheduling, the connector and the network).
	usable := rem - reserveMs - rem/20 - int64(own)*max(overhead, overheadMs)
	var softMs int64
	if e.opts.FixedTime > 0 {
		softMs = e.opts.FixedTime.Milliseconds()
	} else {
		// Spend more per move in the midgame: on 8×8 the game is solved
		// from about 24 empties on (then every move is a table lookup),
		// so plan for the own moves before that and a few for the solve.
		// Measured at 60 s clocks: planning for own−7 moves left 15 s of
		// the clock unused at the end of the game, own−10 8–13 s, own−11
		// (with the larger share for the first solve below) 6–8 s.
		plan := max(int64(own)-6, 3)
		if p.State.Mode.Size() == 8 {
			plan = max(int64(own)-11, 3)
		}
		softMs = usable / (plan + 1)
	}
	hardMs := softMs * 3
	if e.opts.FixedTime > 0 {
		hardMs = softMs
	}
	// A quarter of what is usable at most, but two thirds once an exact
	// solve is in reach: after it every move is a table lookup, and if it
	// does not finish, what is left still solves a few empties later. (At
	// 60 s clocks a quarter left ~10 s of the clock unused at the end of
	// each game, half 8.4 s.)
	limit := usable / 4
	if empties <= solveZone(p.State.Mode.Size()) {
		limit = usable * 2 / 3
	}
	hardMs = min(hardMs, limit, budget/2)
	softMs = min(softMs, hardMs)
	hardMs = max(hardMs, minThinkMs)
	softMs = max(softMs, minThinkMs)
	failLowMs := hardMs
	if e.opts.FixedTime <= 0 {
		failLowMs = max(hardMs, min(2*hardMs, budget*3/4, usable/2))
	}
	ms := time.Millisecond
	return time.Duration(softMs) * ms, time.Duration(hardMs) * ms, time.Duration(failLowMs) * ms
}
