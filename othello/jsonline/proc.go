package jsonline

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/botarena/gamebot/internal/procgroup"
	"io"
	"os/exec"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello/wire"
)

// Proc runs an engine command (through /bin/sh -c, like the official
// connector's --engine) and asks it for moves over the JSON-line protocol.
// An engine that exits after one answer is started again for the next
// question; one that misses its deadline is killed and restarted. A Proc is
// used by one goroutine at a time.
type Proc struct {
	command string
	stderr  io.Writer

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	done   chan struct{}
	served int // answers given by the running process
}

// NewProc prepares a Proc; the engine starts on the first question.
// stderr receives the engine's stderr (nil discards it).
func NewProc(command string, stderr io.Writer) *Proc {
	return &Proc{command: command, stderr: stderr}
}

func (p *Proc) start() error {
	cmd := exec.Command("/bin/sh", "-c", p.command)
	procgroup.Set(cmd)
	if p.stderr != nil {
		cmd.Stderr = p.stderr
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting engine %q: %w", p.command, err)
	}
	lines := make(chan []byte, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 4096), MaxLine)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		_ = cmd.Wait()
	}()
	p.cmd, p.stdin, p.lines, p.done, p.served = cmd, stdin, lines, done, 0
	return nil
}

// kill stops the running engine (its whole process group) and forgets it.
func (p *Proc) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.stdin.Close()
	if p.cmd.Process != nil {
		_ = procgroup.Kill(p.cmd)
	}
	<-p.done
	p.cmd = nil
}

// Close stops the engine.
func (p *Proc) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kill()
	return nil
}

// ErrEngine marks engine failures: no answer in time, a crash, or an answer
// that is not a move.
var ErrEngine = errors.New("engine failed")

// Ask sends req and waits up to timeout for one answer line, which it
// parses as a move for the request's board (−1 for a pass).
func (p *Proc) Ask(ctx context.Context, req *wire.Request, timeout time.Duration) (int, error) {
	size := req.BoardSize
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return 0, err
	}
	b = append(b, '\n')
	t := time.NewTimer(timeout)
	defer t.Stop()
	// An engine that answers once and exits may still look alive when the
	// next question comes: if it dies after having served, start it again
	// and ask once more.
	for attempt := 0; ; attempt++ {
		if p.cmd != nil {
			select {
			case <-p.done:
				p.kill()
			default:
			}
		}
		if p.cmd == nil {
			if err := p.start(); err != nil {
				return 0, fmt.Errorf("%w: %v", ErrEngine, err)
			}
		}
		served := p.served
		if _, err := p.stdin.Write(b); err != nil {
			p.kill()
			if served > 0 && attempt == 0 {
				continue
			}
			return 0, fmt.Errorf("%w: writing request: %v", ErrEngine, err)
		}
		select {
		case line := <-p.lines:
			p.served++
			return parseReply(line, size)
		case <-p.done:
			// The reader may have queued the answer just before exiting.
			select {
			case line := <-p.lines:
				p.served++
				return parseReply(line, size)
			default:
			}
			p.kill()
			if served > 0 && attempt == 0 {
				continue
			}
			return 0, fmt.Errorf("%w: engine exited without answering", ErrEngine)
		case <-t.C:
			p.kill()
			return 0, fmt.Errorf("%w: no answer within %v", ErrEngine, timeout)
		case <-ctx.Done():
			p.kill()
			return 0, ctx.Err()
		}
	}
}

// parseReply parses an engine's answer line (wire.ParseReply); a bad
// answer is an engine failure (ErrEngine).
func parseReply(line []byte, size int) (int, error) {
	m, err := wire.ParseReply(line, size)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrEngine, err)
	}
	return m, nil
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
