package flipsight

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/wire"
)

// Engine chooses moves for the connector. The request is the --engine
// protocol's line (wire.Request), built by the connector from the leg.
type Engine interface {
	// Move answers req (a square from req.LegalMoves or −1) within budget.
	// It returns promptly when ctx is cancelled (stale work).
	Move(ctx context.Context, req *wire.Request, budget time.Duration) (int, error)
	// Done releases what the engine keeps for a finished match.
	Done(matchID int64)
	// Name describes the engine for the environment report.
	Name() string
}

// NativeEngine is the in-process Go engine: the request is validated as
// the HTTP endpoint and the JSON-line engine validate it, without a JSON
// round trip.
type NativeEngine struct{ E *othello.Engine }

// Move implements Engine.
func (n NativeEngine) Move(ctx context.Context, req *wire.Request, budget time.Duration) (int, error) {
	pos, err := req.Position()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	return n.E.Choose(ctx, pos).Move, nil
}

// Done implements Engine.
func (NativeEngine) Done(int64) {}

// Name implements Engine.
func (NativeEngine) Name() string { return "gamebot othello (Go, native)" }

// CommandEngine runs an --engine command, one process per leg, like the
// official connector.
type CommandEngine struct {
	Command string
	Stderr  io.Writer

	mu    sync.Mutex
	procs map[[2]int64]*jsonline.Proc
}

// Move implements Engine.
func (c *CommandEngine) Move(ctx context.Context, req *wire.Request, budget time.Duration) (int, error) {
	c.mu.Lock()
	if c.procs == nil {
		c.procs = map[[2]int64]*jsonline.Proc{}
	}
	key := [2]int64{req.MatchID, int64(req.Leg)}
	p := c.procs[key]
	if p == nil {
		p = jsonline.NewProc(c.Command, c.Stderr)
		c.procs[key] = p
	}
	c.mu.Unlock()
	return p.Ask(ctx, req, budget)
}

// Done implements Engine.
func (c *CommandEngine) Done(matchID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, p := range c.procs {
		if k[0] == matchID {
			_ = p.Close()
			delete(c.procs, k)
		}
	}
}

// Close stops every engine process.
func (c *CommandEngine) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, p := range c.procs {
		_ = p.Close()
		delete(c.procs, k)
	}
}

// Name implements Engine.
func (c *CommandEngine) Name() string {
	return fmt.Sprintf("engine command (%d chars)", len(c.Command))
}
