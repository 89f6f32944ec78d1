package jsonline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/lineproc"
	"github.com/botarena/gamebot/othello/wire"
)

// Engine runs an engine command (through /bin/sh -c, like the official
// connector's --engine) and asks it for moves over the JSON-line
// protocol: a wire.Engine. The command starts on the first question. An
// engine that exits after one answer is started again for the next
// question; one that misses its budget is killed and restarted.
type Engine struct {
	Command string
	Stderr  io.Writer // the command's stderr (nil: discarded)

	mu     sync.Mutex
	proc   *lineproc.Proc
	served int // answers given by the running process
}

var _ wire.Engine = (*Engine)(nil)

// kill stops the running process (its whole process group) and forgets it.
func (e *Engine) kill() {
	if e.proc != nil {
		e.proc.Kill()
		e.proc = nil
	}
}

// Close stops the engine.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.kill()
	return nil
}

// Move sends req and waits up to budget for one answer line, which it
// parses as a move for the request's board (−1 for a pass). Failures of
// the engine itself wrap wire.ErrEngine.
func (e *Engine) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	size := req.BoardSize
	e.mu.Lock()
	defer e.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return wire.Answer{}, err
	}
	b = append(b, '\n')
	t := time.NewTimer(budget)
	defer t.Stop()
	// An engine that answers once and exits may still look alive when the
	// next question comes: if it dies after having served, start it again
	// and ask once more.
	for attempt := 0; ; attempt++ {
		if e.proc != nil && e.proc.Exited() {
			e.kill()
		}
		if e.proc == nil {
			p, err := lineproc.Start(e.Command, "", e.Stderr, MaxLine)
			if err != nil {
				return wire.Answer{}, fmt.Errorf("%w: %v", wire.ErrEngine, err)
			}
			e.proc, e.served = p, 0
		}
		served := e.served
		if err := e.proc.Write(b); err != nil {
			e.kill()
			if served > 0 && attempt == 0 {
				continue
			}
			return wire.Answer{}, fmt.Errorf("%w: writing request: %v", wire.ErrEngine, err)
		}
		line, err := e.proc.Next(ctx, t.C)
		switch {
		case err == nil:
			e.served++
			return parseReply(line, size)
		case errors.Is(err, lineproc.ErrExited):
			e.kill()
			if served > 0 && attempt == 0 {
				continue
			}
			return wire.Answer{}, fmt.Errorf("%w: engine exited without answering", wire.ErrEngine)
		case errors.Is(err, lineproc.ErrTimeout):
			e.kill()
			return wire.Answer{}, fmt.Errorf("%w: no answer within %v", wire.ErrEngine, budget)
		default:
			e.kill()
			return wire.Answer{}, err
		}
	}
}

// parseReply parses an engine's answer line (wire.ParseReply); a bad
// answer is an engine failure (wire.ErrEngine).
func parseReply(line []byte, size int) (wire.Answer, error) {
	a, err := wire.ParseReply(line, size)
	if err != nil {
		return wire.Answer{}, fmt.Errorf("%w: %v", wire.ErrEngine, err)
	}
	return a, nil
}

// SyncWriter returns a writer safe for concurrent use (engine processes
// sharing one stderr).
func SyncWriter(w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	return &syncWriter{w: w}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}
