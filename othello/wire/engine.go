package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
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
	// when there is none, within budget, with what its search found when
	// the engine says. It returns promptly when ctx is cancelled.
	Move(ctx context.Context, req *Request, budget time.Duration) (Answer, error)
	// Close releases what the engine holds (a process).
	Close() error
}

// Answer is an engine's move and, when the engine says, what its search
// found: the browser table's review draws it, a match ignores it.
type Answer struct {
	Move  int      // a square of the request's legal moves, or −1 (a pass)
	Score *float64 // discs for the mover; nil when the engine does not say
	Depth int      // the search's completed depth (0: not said)
	Exact bool     // Score is proven
}

// ErrEngine marks an engine's own failures: no answer in time, a crash,
// an answer that is not a move.
var ErrEngine = errors.New("engine failed")

// InProcess is an othello.Engine in this process: the request is
// validated as the HTTP endpoint and the JSON-line engine validate it,
// without a JSON round trip, and the search stops at the budget.
type InProcess struct{ E *othello.Engine }

// Move implements Engine.
func (n InProcess) Move(ctx context.Context, req *Request, budget time.Duration) (Answer, error) {
	pos, err := req.Position()
	if err != nil {
		return Answer{}, err
	}
	a, _ := choose(ctx, n.E, pos, budget)
	return a, nil
}

// choose asks e for pos's move within budget.
func choose(ctx context.Context, e *othello.Engine, pos *othello.Position, budget time.Duration) (Answer, othello.Decision) {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	d := e.Choose(ctx, pos)
	a := Answer{Move: d.Move, Depth: d.Depth, Exact: d.Exact}
	if d.Move != othello.Pass {
		a.Score = &d.Score
	}
	return a, d
}

// NewRequest is the request FlipSight's connector sends for st (mode,
// board, side to move, legal moves, placements), the mover's clock and
// the budget the connector allows, for leg of match.
func NewRequest(st *othello.State, remaining, budget time.Duration, matchID int64, leg int, revision int64) *Request {
	legal := st.LegalMoves()
	if legal == nil {
		legal = []int{}
	}
	board := make([]int, len(st.Cells))
	for i, v := range st.Cells {
		board[i] = int(v)
	}
	blocked := st.Mode.Blocked()
	if blocked == nil {
		blocked = []int{}
	}
	rem, bud := remaining.Milliseconds(), budget.Milliseconds()
	return &Request{
		Board: board, Color: st.Turn, LegalMoves: legal, GameMode: st.Mode.String(), BoardSize: st.Mode.Size(),
		BlockedSquares: blocked, Placed: map[string]int{"1": st.Placed[0], "2": st.Placed[1]},
		RemainingMs: &rem, MatchID: matchID, Leg: leg, Revision: revision,
		History: json.RawMessage("[]"), BudgetMs: &bud,
	}
}

// Close implements Engine: there is nothing to release.
func (InProcess) Close() error { return nil }

// Pondering is InProcess that thinks on the opponent's time: after each
// answer it searches the position its move left (othello.Engine.Ponder)
// until the next request, or Close, stops it. The engine must be this
// leg's alone, as the match runner and the connector start one per leg:
// the next search finds the ponder's work in the engine's table.
type Pondering struct {
	E *othello.Engine

	mu   sync.Mutex
	stop func() // stops the running ponder and waits for it; nil: none
}

// Move implements Engine.
func (n *Pondering) Move(ctx context.Context, req *Request, budget time.Duration) (Answer, error) {
	n.halt()
	pos, err := req.Position()
	if err != nil {
		return Answer{}, err
	}
	a, d := choose(ctx, n.E, pos, budget)
	stop := n.E.PonderAfter(pos, d.Move, d.Elapsed)
	n.mu.Lock()
	n.stop = stop
	n.mu.Unlock()
	return a, nil
}

// halt stops the running ponder, if any, and waits until it has stopped.
func (n *Pondering) halt() {
	n.mu.Lock()
	stop := n.stop
	n.stop = nil
	n.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Close implements Engine: it stops the ponder.
func (n *Pondering) Close() error {
	n.halt()
	return nil
}

// Failed is an engine that could not start: every move fails with err
// (an engine failure), so that whoever plays it adjudicates the leg as
// any engine's failure.
func Failed(err error) Engine { return failed{err} }

type failed struct{ err error }

func (f failed) Move(context.Context, *Request, time.Duration) (Answer, error) {
	return Answer{}, fmt.Errorf("%w: %v", ErrEngine, f.err)
}

func (failed) Close() error { return nil }
