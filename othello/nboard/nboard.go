// Package nboard drives an external engine that speaks the NBoard protocol
// (set game / go / "=== move"), so that local matches can measure the
// JSON-line engines against classic 8×8 engines. Only std positions can be
// asked: NBoard engines know standard Othello only.
package nboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/lineproc"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// Engine is one NBoard engine process, started on first use: a
// wire.Engine for std requests.
type Engine struct {
	Command string    // run with /bin/sh -c
	Dir     string    // working directory (engines look for their data there)
	Depth   int       // "set depth N" when > 0
	Stderr  io.Writer // the command's stderr (nil: discarded)

	mu   sync.Mutex
	proc *lineproc.Proc
}

var _ wire.Engine = (*Engine)(nil)

// maxLine bounds one line of an NBoard engine's output.
const maxLine = 64 << 10

func (e *Engine) start() error {
	p, err := lineproc.Start(e.Command, e.Dir, e.Stderr, maxLine)
	if err != nil {
		return err
	}
	e.proc = p
	init := "nboard 2\n"
	if e.Depth > 0 {
		init += fmt.Sprintf("set depth %d\n", e.Depth)
	}
	return p.Write([]byte(init))
}

// Close stops the engine.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.kill()
	return nil
}

// kill asks the engine to quit, and ends it if it has not within 200 ms.
func (e *Engine) kill() {
	if e.proc == nil {
		return
	}
	_ = e.proc.Write([]byte("quit\n"))
	e.proc.Stop(200 * time.Millisecond)
	e.proc = nil
}

// GGF returns the NBoard "set game" record of a std position: the board
// as the start position with the side to move.
func GGF(board []int, color int) (string, error) {
	if len(board) != 64 {
		return "", fmt.Errorf("NBoard engines play 8×8 only (board of %d squares)", len(board))
	}
	var sb strings.Builder
	for _, c := range board {
		switch c {
		case othello.Black:
			sb.WriteByte('*')
		case othello.White:
			sb.WriteByte('O')
		default:
			sb.WriteByte('-')
		}
	}
	stm := "*"
	if color == othello.White {
		stm = "O"
	}
	return "(;GM[Othello]PC[NBoard]PB[black]PW[white]RE[?]TI[0:00]TY[8]BO[8 " + sb.String() + " " + stm + "];)", nil
}

// Move asks for a move in the request r (std only), within budget. It
// answers −1 without asking when legal_moves is empty. Failures of the
// engine itself wrap wire.ErrEngine.
func (e *Engine) Move(ctx context.Context, r *wire.Request, budget time.Duration) (wire.Answer, error) {
	if r.GameMode != "std" || r.BoardSize != 8 {
		return wire.Answer{}, fmt.Errorf("%w: NBoard engines play std only, not %s", wire.ErrEngine, r.GameMode)
	}
	if len(r.LegalMoves) == 0 {
		return wire.Answer{Move: othello.Pass}, nil
	}
	game, err := GGF(r.Board, r.Color)
	if err != nil {
		return wire.Answer{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.proc == nil {
		if err := e.start(); err != nil {
			e.kill()
			return wire.Answer{}, fmt.Errorf("%w: %v", wire.ErrEngine, err)
		}
	}
	if err := e.proc.Write([]byte("set game " + game + "\ngo\n")); err != nil {
		e.kill()
		return wire.Answer{}, fmt.Errorf("%w: %v", wire.ErrEngine, err)
	}
	t := time.NewTimer(budget)
	defer t.Stop()
	for {
		b, err := e.proc.Next(ctx, t.C)
		switch {
		case errors.Is(err, lineproc.ErrExited):
			e.kill()
			return wire.Answer{}, fmt.Errorf("%w: engine exited", wire.ErrEngine)
		case errors.Is(err, lineproc.ErrTimeout):
			e.kill()
			return wire.Answer{}, fmt.Errorf("%w: no answer within %v", wire.ErrEngine, budget)
		case err != nil:
			e.kill()
			return wire.Answer{}, err
		}
		line := string(b)
		if !strings.HasPrefix(line, "===") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "==="))
		if len(f) == 0 {
			return wire.Answer{}, fmt.Errorf("%w: empty answer %q", wire.ErrEngine, line)
		}
		// "=== f5/-3.00/0.5": the move, then the engine's evaluation (discs,
		// for the mover) and its time, when it gives them.
		parts := strings.Split(f[0], "/")
		m, err := othello.ParseMove(parts[0], 8)
		if err != nil {
			return wire.Answer{}, fmt.Errorf("%w: answer %q: %v", wire.ErrEngine, line, err)
		}
		a := wire.Answer{Move: m}
		if len(parts) > 1 {
			if v, err := strconv.ParseFloat(parts[1], 64); err == nil && math.Abs(v) <= 64 {
				a.Score = &v
			}
		}
		return a, nil
	}
}
