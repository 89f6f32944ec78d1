package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/wire"
)

// Side is one colour of a leg: the engine that plays it and its clock.
// A person is a side too, whose engine waits for the person's move.
type Side struct {
	Engine wire.Engine
	// Clock is the side's clock for the leg (0: untimed: its requests
	// say Untimed, and nothing runs out).
	Clock time.Duration
	// MaxThink caps budget_ms, which is the clock less the connector's
	// Margin: the connector kills an engine at its budget. 0: no cap and
	// no margin, the whole clock is the budget (a person's side; untimed,
	// the budget is 0: none).
	MaxThink time.Duration
}

// The connector's margin, and the clock and budget an engine is told of
// in a leg without clocks.
const (
	Margin        = 750 * time.Millisecond
	Untimed       = time.Hour
	UntimedBudget = time.Minute
)

// Gate is where a leg waits for the people following it: a browser
// table's pace, pause and step, and its thinking slots. The runner asks
// a side for its move inside Ask, and plays the move found once Play
// returns; an error from either (ctx done) ends the leg, abandoned.
type Gate interface {
	// Ask runs ask, colour c's question to its engine, when the leg may
	// go on. Only the time ask takes is the side's.
	Ask(ctx context.Context, c int, ask func()) error
	// Play returns when colour c's move, found, may be played.
	Play(ctx context.Context, c int) error
}

// LegConfig is one leg for RunLeg.
type LegConfig struct {
	MatchID int64   // echoed in requests
	Leg     int     // the leg's number in its match (0 or 1), echoed in requests
	Sides   [2]Side // black's, white's
	Gate    Gate    // nil: none
	// OnMove, when set, is told each move played, a pass too, as a
	// record keeps it, with the position after it.
	OnMove func(m record.Move, after *othello.State)
}

// RunLeg plays a leg from start (which it does not change) as FlipSight
// does: the side to move is asked for a move, passes too, with its clock
// and a budget from it; a side loses the leg by an illegal answer, by
// failing to answer (an engine failure, or no answer within its budget:
// on time), or when its clock runs out. A leg cut short (ctx done, or the
// gate's error) is abandoned.
func RunLeg(ctx context.Context, cfg LegConfig, start *othello.State) Leg {
	r := legRun{cfg: cfg, s: start.Clone(), clocks: [2]time.Duration{cfg.Sides[0].Clock, cfg.Sides[1].Clock}}
	for !r.s.Over() {
		if ctx.Err() != nil {
			return r.abandon("match cancelled")
		}
		if l, over := r.turn(ctx); over {
			return l
		}
	}
	b, w := r.s.Discs()
	r.l.Discs = [2]int{b, w}
	r.l.Result = r.l.Discs
	return r.l
}

// legRun is a leg in play.
type legRun struct {
	cfg      LegConfig
	s        *othello.State
	l        Leg
	clocks   [2]time.Duration // left, by colour − 1
	revision int64
}

// limits are the clock a side's request states and its budget; ok is
// false when a timed engine's clock is down to the margin.
func (r *legRun) limits(c int) (remaining, budget time.Duration, ok bool) {
	side := r.cfg.Sides[c-1]
	switch {
	case side.Clock == 0 && side.MaxThink > 0:
		return Untimed, UntimedBudget, true
	case side.Clock == 0:
		return Untimed, 0, true
	case side.MaxThink <= 0:
		return r.clocks[c-1], r.clocks[c-1], true
	}
	remaining = r.clocks[c-1]
	budget = min(side.MaxThink, remaining-Margin)
	return remaining, budget, budget > 0
}

// turn asks the side to move for its move and plays it; over reports the
// leg's end, l its outcome.
func (r *legRun) turn(ctx context.Context) (l Leg, over bool) {
	c := r.s.Turn
	legal := r.s.LegalMoves()
	if legal == nil {
		legal = []int{}
	}
	remaining, budget, ok := r.limits(c)
	req := wire.NewRequest(r.s, remaining, budget, r.cfg.MatchID, r.cfg.Leg, r.revision)
	if !ok {
		return r.fail(c, FailTimeout, fmt.Sprintf("clock %v below the connector's 750 ms margin", remaining)), true
	}
	var ans wire.Answer
	var err error
	var took time.Duration
	ask := func() {
		t0 := time.Now()
		ans, err = r.cfg.Sides[c-1].Engine.Move(ctx, req, budget)
		took = time.Since(t0)
	}
	if g := r.cfg.Gate; g == nil {
		ask()
	} else if gerr := g.Ask(ctx, c, ask); gerr != nil {
		return r.abandon(gerr.Error()), true
	}
	timed := r.cfg.Sides[c-1].Clock > 0
	if timed {
		r.clocks[c-1] -= took
	}
	r.l.Used[c-1] += took
	r.l.MaxMove[c-1] = max(r.l.MaxMove[c-1], took)
	switch {
	case ctx.Err() != nil:
		return r.abandon("match cancelled"), true
	case err != nil && errors.Is(err, wire.ErrEngine) && budget > 0 && took >= budget:
		return r.fail(c, FailTimeout, err.Error()), true
	case err != nil:
		return r.fail(c, FailEngine, err.Error()), true
	case timed && r.clocks[c-1] <= 0:
		return r.fail(c, FailTimeout, fmt.Sprintf("clock ran out (answer took %v)", took)), true
	case ans.Move == othello.Pass && len(legal) > 0:
		return r.fail(c, FailIllegal, fmt.Sprintf("passed with legal moves %v", legal)), true
	case ans.Move != othello.Pass && !slices.Contains(legal, ans.Move):
		return r.fail(c, FailIllegal, fmt.Sprintf("move %d not in legal_moves %v", ans.Move, legal)), true
	}
	if g := r.cfg.Gate; g != nil {
		if gerr := g.Play(ctx, c); gerr != nil {
			return r.abandon(gerr.Error()), true
		}
	}
	r.play(c, ans, took)
	return Leg{}, false
}

// play plays colour c's legal answer, which took took.
func (r *legRun) play(c int, ans wire.Answer, took time.Duration) {
	m := record.Move{Move: record.MoveName(ans.Move, r.s.Mode.Size()), Ms: took.Milliseconds(), Score: ans.Score, Depth: ans.Depth, Exact: ans.Exact}
	if r.cfg.Sides[c-1].Clock > 0 {
		rem := max(r.clocks[c-1], 0).Milliseconds()
		m.RemainingMs = &rem
	}
	r.l.Played = append(r.l.Played, m)
	_ = r.s.Play(ans.Move)
	if ans.Move == othello.Pass {
		r.l.Passes++
	}
	r.l.Moves++
	r.revision++
	if r.cfg.OnMove != nil {
		r.cfg.OnMove(m, r.s.Clone())
	}
}

// fail ends the leg lost by colour: the discs stay as they are, the
// result is adjudicated (the mode's playable squares to the winner; in
// anti, the loser gets 64).
func (r *legRun) fail(colour int, kind, detail string) Leg {
	r.l.Failed, r.l.Failure, r.l.FailureDetail = colour, kind, detail
	b, w := r.s.Discs()
	r.l.Discs = [2]int{b, w}
	loser, winner := 0, maxScore(r.s.Mode)
	if r.s.Mode == othello.Anti {
		loser, winner = 64, 0
	}
	if colour == othello.Black {
		r.l.Result = [2]int{loser, winner}
	} else {
		r.l.Result = [2]int{winner, loser}
	}
	return r.l
}

// abandon ends a leg cut short: its discs as they are, no winner.
func (r *legRun) abandon(why string) Leg {
	r.l.Failure, r.l.FailureDetail = FailAbandoned, why
	b, w := r.s.Discs()
	r.l.Discs = [2]int{b, w}
	r.l.Result = r.l.Discs
	return r.l
}
