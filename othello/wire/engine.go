package wire

import (
	"context"
	"errors"
	"time"

	"github.com/botarena/gamebot/othello"
)

// Engine answers requests with moves: the one interface of every engine
// the match runner and the connector can play, in this process
// (InProcess) or as a child process (othello/jsonline, othello/nboard).
// Both start one per leg, as the official connector runs one engine
// process per game, and close it when the leg is over.
type Engine interface {
	// Move answers req with a square from req.LegalMoves, or −1 (a pass)
	// when there is none, within budget. It returns promptly when ctx is
	// cancelled.
	Move(ctx context.Context, req *Request, budget time.Duration) (int, error)
	// Close releases what the engine holds (a process).
	Close() error
}

// ErrEngine marks an engine's own failures: no answer in time, a crash,
// an answer that is not a move.
var ErrEngine = errors.New("engine failed")

// InProcess is an othello.Engine in this process: the request is
// validated as the HTTP endpoint and the JSON-line engine validate it,
// without a JSON round trip, and the search stops at the budget.
type InProcess struct{ E *othello.Engine }

// Move implements Engine.
func (n InProcess) Move(ctx context.Context, req *Request, budget time.Duration) (int, error) {
	pos, err := req.Position()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	return n.E.Choose(ctx, pos).Move, nil
}

// Close implements Engine: there is nothing to release.
func (InProcess) Close() error { return nil }
