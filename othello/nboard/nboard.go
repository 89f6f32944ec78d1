// Package nboard drives an external engine that speaks the NBoard protocol
// (set game / go / "=== move"), so that local matches can measure the
// JSON-line engines against classic 8×8 engines. Only std positions can be
// asked: NBoard engines know standard Othello only.
package nboard

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/botarena/gamebot/internal/procgroup"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// Engine is one NBoard engine process (started on first use).
type Engine struct {
	Command string // run with /bin/sh -c
	Dir     string // working directory (engines look for their data there)
	Depth   int    // "set depth N" when > 0
	Stderr  io.Writer

	mu    sync.Mutex
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	done  chan struct{}
}

// ErrEngine marks a failed or silent engine.
var ErrEngine = errors.New("nboard engine failed")

func (e *Engine) start() error {
	cmd := exec.Command("/bin/sh", "-c", e.Command)
	cmd.Dir = e.Dir
	procgroup.Set(cmd)
	if e.Stderr != nil {
		cmd.Stderr = e.Stderr
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	lines := make(chan string, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		_ = cmd.Wait()
	}()
	e.cmd, e.stdin, e.lines, e.done = cmd, in, lines, done
	init := "nboard 2\n"
	if e.Depth > 0 {
		init += fmt.Sprintf("set depth %d\n", e.Depth)
	}
	_, err = io.WriteString(in, init)
	return err
}

// Close stops the engine.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.kill()
	return nil
}

func (e *Engine) kill() {
	if e.cmd == nil {
		return
	}
	_, _ = io.WriteString(e.stdin, "quit\n")
	_ = e.stdin.Close()
	select {
	case <-e.done:
	case <-time.After(200 * time.Millisecond):
		_ = procgroup.Kill(e.cmd)
		<-e.done
	}
	e.cmd = nil
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

// Ask asks for a move in the connector request r (std only). It answers
// −1 without asking when legal_moves is empty.
func (e *Engine) Ask(ctx context.Context, r *wire.Request, timeout time.Duration) (int, error) {
	if r.GameMode != "std" || r.BoardSize != 8 {
		return 0, fmt.Errorf("%w: NBoard engines play std only, not %s", ErrEngine, r.GameMode)
	}
	if len(r.LegalMoves) == 0 {
		return othello.Pass, nil
	}
	game, err := GGF(r.Board, r.Color)
	if err != nil {
		return 0, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cmd == nil {
		if err := e.start(); err != nil {
			return 0, fmt.Errorf("%w: %v", ErrEngine, err)
		}
	}
	if _, err := io.WriteString(e.stdin, "set game "+game+"\ngo\n"); err != nil {
		e.kill()
		return 0, fmt.Errorf("%w: %v", ErrEngine, err)
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case line := <-e.lines:
			if !strings.HasPrefix(line, "===") {
				continue
			}
			f := strings.Fields(strings.TrimPrefix(line, "==="))
			if len(f) == 0 {
				return 0, fmt.Errorf("%w: empty answer %q", ErrEngine, line)
			}
			mv := strings.SplitN(f[0], "/", 2)[0]
			m, err := othello.ParseMove(mv, 8)
			if err != nil {
				return 0, fmt.Errorf("%w: answer %q: %v", ErrEngine, line, err)
			}
			return m, nil
		case <-e.done:
			e.kill()
			return 0, fmt.Errorf("%w: engine exited", ErrEngine)
		case <-t.C:
			e.kill()
			return 0, fmt.Errorf("%w: no answer within %v", ErrEngine, timeout)
		case <-ctx.Done():
			e.kill()
			return 0, ctx.Err()
		}
	}
}
