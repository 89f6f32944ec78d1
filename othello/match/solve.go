package match

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/bitboard"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/stdengine"
	"github.com/botarena/gamebot/othello/wire"
)

// Solve races: how long an engine takes to solve std endgame positions
// exactly, each in a fresh engine (a fresh process for a command), timed
// from the request after a warm-up request in the same engine, so that
// neither a program's loading nor a model's decoding is counted (an
// NBoard engine loads before "go", ours decodes its model once).

// SolvePosition is a std position to solve and, when published, its
// answer.
type SolvePosition struct {
	Name  string
	State *othello.State
	// Best are the published best moves (nil: none published), Score the
	// exact final disc difference for the side to move.
	Best  []int
	Score int
}

// Published is the published answer as "a2 +38" or "g3 c7 -12" ("" when
// none is).
func (p SolvePosition) Published() string {
	if p.Best == nil {
		return ""
	}
	var b strings.Builder
	for _, m := range p.Best {
		b.WriteString(othello.SquareName(m, 8) + " ")
	}
	return fmt.Sprintf("%s%+d", b.String(), p.Score)
}

// FFO40to49 are FFO endgame test positions #40–#49 (20 to 26 empties)
// with their published best moves and scores (stdengine.FFO).
func FFO40to49() []SolvePosition {
	var out []SolvePosition
	for _, f := range stdengine.FFO() {
		out = append(out, SolvePosition{Name: f.Name, State: stateOf(f.Position), Best: f.Best, Score: f.Score})
	}
	return out
}

// SelfPlaySolvePositions are per positions at each number of empties
// from self-play games (stdengine.SelfPlayPositions with the embedded
// model), drawn from seed, each with more than one legal move: positions
// of the games the engine plays rather than of a published set.
func SelfPlaySolvePositions(seed uint64, empties []int, per int) []SolvePosition {
	var out []SolvePosition
	model := stdengine.Embedded()
	for _, e := range empties {
		// A position with one legal move is no race: an engine may play
		// it at once. Such positions are replaced by the next ones drawn.
		rng := rand.New(rand.NewPCG(seed, uint64(e)))
		var set []stdengine.Position
		for len(set) < per {
			for _, q := range stdengine.SelfPlayPositions(rng, model, per-len(set), e, e) {
				if bits.OnesCount64(bitboard.Moves(q.P, q.O)) > 1 {
					set = append(set, q)
				}
			}
		}
		for i, q := range set {
			out = append(out, SolvePosition{Name: fmt.Sprintf("seed %d, #%d", seed, i+1), State: stateOf(q)})
		}
	}
	return out
}

// stateOf is the std state of a search position.
func stateOf(q stdengine.Position) *othello.State {
	st := othello.NewState(othello.Std)
	black, white, turn := q.P, q.O, othello.Black
	if q.White {
		black, white, turn = q.O, q.P, othello.White
	}
	for sq := range 64 {
		switch {
		case black>>uint(sq)&1 != 0:
			st.Cells[sq] = othello.Black
		case white>>uint(sq)&1 != 0:
			st.Cells[sq] = othello.White
		default:
			st.Cells[sq] = 0
		}
	}
	st.Turn = turn
	return st
}

// Solved is an engine's answer to a SolvePosition.
type Solved struct {
	Move  int
	Score *float64 // the engine's score for the mover, when it says
	Took  time.Duration
}

// MoveName is the answer's move as a1…h8.
func (s Solved) MoveName() string { return othello.SquareName(s.Move, 8) }

// Agrees reports whether the answer is one of the published best moves
// with the published score (true when nothing is published; the move
// alone when the engine gives no score).
func (p SolvePosition) Agrees(s Solved) bool {
	if p.Best == nil {
		return true
	}
	return slices.Contains(p.Best, s.Move) && (s.Score == nil || *s.Score == float64(p.Score))
}

// warmUp is a std position with one empty square, h8, which black takes.
func warmUp() *othello.State {
	st := othello.NewState(othello.Std)
	for i := range st.Cells {
		st.Cells[i] = othello.Black
	}
	st.Cells[62], st.Cells[63] = othello.White, 0
	return st
}

// SolveOne starts player's engine afresh for pos, asks it the warm-up
// position and then pos without a clock (within budget), and returns its
// answer and the time it took. An NBoard player solves at its spec's
// depth: choose one that ends in an exact solve at pos's empties.
func SolveOne(ctx context.Context, player players.Player, pos SolvePosition, budget time.Duration, leg players.Leg) (Solved, error) {
	leg.Mode, leg.Timed = othello.Std, false
	e, err := player.Start(leg)
	if err != nil {
		return Solved{}, err
	}
	defer e.Close()
	if _, err := e.Move(ctx, untimed(warmUp()), budget); err != nil {
		return Solved{}, fmt.Errorf("%s, the warm-up: %w", player.Name, err)
	}
	req := untimed(pos.State)
	t0 := time.Now()
	a, err := e.Move(ctx, req, budget)
	took := time.Since(t0)
	if err != nil {
		return Solved{}, fmt.Errorf("%s, %s: %w", player.Name, pos.Name, err)
	}
	if !slices.Contains(req.LegalMoves, a.Move) {
		return Solved{}, fmt.Errorf("%s, %s: %s is not a legal move", player.Name, pos.Name, othello.SquareName(a.Move, 8))
	}
	return Solved{Move: a.Move, Score: a.Score, Took: took}, nil
}

// untimed is the request of st with no clock: a fixed-depth engine
// searches to its depth.
func untimed(st *othello.State) *wire.Request {
	r := wire.NewRequest(st, 0, 0, 0, 0, 0)
	r.RemainingMs, r.BudgetMs = nil, nil
	return r
}
