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
	// Best are the published best moves with the exact score ("A2:+38",
	// "G3:-12 C7:-12"); "" when none is published.
	Best string
}

// ParseSolvePosition reads a std board of 64 squares from a1 to h8, X
// black, O white, - empty, and the side to move (X or O).
func ParseSolvePosition(name, board, side, best string) (SolvePosition, error) {
	if len(board) != 64 {
		return SolvePosition{}, fmt.Errorf("%s: a board is 64 squares, not %d", name, len(board))
	}
	st := othello.NewState(othello.Std)
	for i, c := range board {
		switch c {
		case 'X':
			st.Cells[i] = othello.Black
		case 'O':
			st.Cells[i] = othello.White
		case '-':
			st.Cells[i] = 0
		default:
			return SolvePosition{}, fmt.Errorf("%s: square %d is %q, not X, O or -", name, i, c)
		}
	}
	switch side {
	case "X":
		st.Turn = othello.Black
	case "O":
		st.Turn = othello.White
	default:
		return SolvePosition{}, fmt.Errorf("%s: the side to move is X or O, not %q", name, side)
	}
	if len(st.LegalMoves()) == 0 {
		return SolvePosition{}, fmt.Errorf("%s: the side to move has no move", name)
	}
	return SolvePosition{Name: name, State: st, Best: best}, nil
}

// FFO40to49 are FFO endgame test positions #40–#49 (20 to 26 empties)
// with their published best moves and scores.
func FFO40to49() []SolvePosition {
	ffo := []struct{ board, side, best string }{
		{"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", "X", "A2:+38"},
		{"-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-", "X", "H4:+0"},
		{"--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--", "X", "G2:+6"},
		{"--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-", "O", "G3:-12 C7:-12"},
		{"--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX--", "O", "D2:-14 B8:-14"},
		{"---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO--", "X", "B2:+6"},
		{"---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-", "X", "B3:-8"},
		{"-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX--", "O", "G2:+4"},
		{"-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX-", "O", "F6:+28"},
		{"--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O---", "X", "E1:+16"},
	}
	out := make([]SolvePosition, len(ffo))
	for i, f := range ffo {
		p, err := ParseSolvePosition(fmt.Sprintf("FFO #%d", 40+i), f.board, f.side, f.best)
		if err != nil {
			panic(err) // the table above is wrong
		}
		out[i] = p
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
			out = append(out, SolvePosition{Name: fmt.Sprintf("seed %d, #%d", seed, i+1), State: st})
		}
	}
	return out
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
// with the published score (true when nothing is published or the engine
// gives no score, for the move alone then).
func (p SolvePosition) Agrees(s Solved) bool {
	if p.Best == "" {
		return true
	}
	for _, b := range strings.Fields(p.Best) {
		mv, score, _ := strings.Cut(b, ":")
		if !strings.EqualFold(mv, s.MoveName()) {
			continue
		}
		var v float64
		if _, err := fmt.Sscanf(score, "%g", &v); err != nil {
			return false
		}
		return s.Score == nil || *s.Score == v
	}
	return false
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
