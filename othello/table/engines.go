package table

import (
	"context"
	"fmt"
	"time"

	"github.com/botarena/gamebot/othello"
)

// Level is a strength of our engine at a table: a depth cap and the
// empties from which it plays perfectly (0: the clock decides both).
type Level struct {
	N        int
	Depth    int
	SolveAt  int
	MoveTime time.Duration // per move when no clock runs and nothing caps the depth
}

// Levels are our engine's strengths, weakest first; the last is the
// engine as it plays on FlipSight.
var levels = [...]Level{
	{N: 1, Depth: 1},
	{N: 2, Depth: 2, SolveAt: 6},
	{N: 3, Depth: 4, SolveAt: 10},
	{N: 4, Depth: 6, SolveAt: 14},
	{N: 5, Depth: 8, SolveAt: 16},
	{N: 6, Depth: 10, SolveAt: 18},
	{N: 7, Depth: 12, SolveAt: 20},
	{N: 8, MoveTime: 2 * time.Second},
}

// Levels returns our engine's strengths, weakest first.
func Levels() []Level { return levels[:] }

// OurEngines are our engine's levels as table engines, strongest first
// (the default opponent is the engine as it plays on FlipSight).
func OurEngines() []EngineSpec {
	var out []EngineSpec
	for i := len(levels) - 1; i >= 0; i-- {
		lv := levels[i]
		title := fmt.Sprintf("gamebot, level %d (depth %d)", lv.N, lv.Depth)
		if lv.Depth == 0 {
			title = fmt.Sprintf("gamebot, level %d (full strength: the clock, or %s a move)", lv.N, lv.MoveTime)
		}
		out = append(out, EngineSpec{ID: fmt.Sprintf("gamebot-%d", lv.N), Title: title, Kind: "engine",
			New: func(_ othello.Mode, timed bool) (Engine, error) { return newOurs(lv, timed), nil }})
	}
	return out
}

// ours is our engine in process, one per leg and side: its own table.
type ours struct {
	e  *othello.Engine
	lv Level
}

func newOurs(lv Level, timed bool) *ours {
	opt := othello.EngineOptions{TTBits: 17, Pool: 1, MaxDepth: lv.Depth, SolveAt: lv.SolveAt}
	if lv.Depth == 0 {
		opt.TTBits = 19
		if !timed {
			opt.FixedTime = lv.MoveTime
		}
	}
	return &ours{e: othello.NewEngine(opt), lv: lv}
}

// untimed is the clock our engine is told of at a table without clocks:
// a depth cap or a fixed time a move decides instead.
const untimed = time.Hour

func (o *ours) Move(ctx context.Context, st *othello.State, remaining time.Duration, matchID int64, leg int) (Decision, error) {
	p := &othello.Position{State: st, Legal: st.LegalMoves(), MatchID: matchID, Leg: leg}
	if remaining > 0 {
		p.RemainingMs = remaining.Milliseconds()
		// FlipSight's connector: the budget is the clock less its margin,
		// capped by its max think.
		p.BudgetMs = max(min(10_000, p.RemainingMs-750), 1)
	} else {
		p.RemainingMs = untimed.Milliseconds()
	}
	d := o.e.Choose(ctx, p)
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	score := d.Score
	return Decision{Move: d.Move, Score: &score, Depth: d.Depth, Exact: d.Exact}, nil
}

func (o *ours) Close() error { return nil }
