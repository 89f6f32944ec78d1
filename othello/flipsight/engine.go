package flipsight

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
)

// EngineRequest is the connector's engine request (one JSON line of the
// --engine protocol).
type EngineRequest struct {
	Board          []int          `json:"board"`
	Color          int            `json:"color"`
	LegalMoves     []int          `json:"legal_moves"`
	GameMode       string         `json:"game_mode"`
	BoardSize      int            `json:"board_size"`
	BlockedSquares []int          `json:"blocked_squares"`
	Placed         Placed         `json:"placed"`
	RemainingMs    int64          `json:"remaining_ms"`
	MatchID        int64          `json:"match_id"`
	Leg            int            `json:"leg"`
	Revision       int64          `json:"revision"`
	History        []HistoryEntry `json:"history"`
	RoundNo        *int64         `json:"round_no"`
	RoomCreatedAt  *string        `json:"room_created_at"`
	BudgetMs       int64          `json:"budget_ms"`
}

// Engine chooses moves for the connector.
type Engine interface {
	// Move answers req (a square from req.LegalMoves or −1) within budget.
	Move(ctx context.Context, req *EngineRequest, budget time.Duration) (int, error)
	// Done releases what the engine keeps for a finished match.
	Done(matchID int64)
	// Name describes the engine for the environment report.
	Name() string
}

// NativeEngine is the in-process Go engine.
type NativeEngine struct{ E *othello.Engine }

// Move implements Engine.
func (n NativeEngine) Move(ctx context.Context, req *EngineRequest, budget time.Duration) (int, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return 0, err
	}
	r, err := othello.DecodeRequest(b)
	if err != nil {
		return 0, err
	}
	pos, err := r.Validate()
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
func (c *CommandEngine) Move(ctx context.Context, req *EngineRequest, budget time.Duration) (int, error) {
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
	return p.Ask(ctx, req, req.BoardSize, budget)
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
