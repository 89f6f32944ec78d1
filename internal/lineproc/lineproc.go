// Package lineproc runs a command (through /bin/sh -c) in a process group
// of its own and talks to it in lines: one writer for its input, one
// reader for its output. It is the one child-process line reader of the
// engines that speak line protocols (othello/jsonline, othello/nboard).
package lineproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/botarena/gamebot/internal/procgroup"
)

// ErrExited is returned by Next when the process ended before writing
// another line; ErrTimeout when the timer fired first.
var (
	ErrExited  = errors.New("process exited")
	ErrTimeout = errors.New("no line in time")
)

// Proc is one running command. Write, Next and Kill are used by one
// goroutine at a time.
type Proc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte
	quit  chan struct{} // closed by Kill: the reader drops what is left
	done  chan struct{} // closed once the output is read and the process reaped
}

// Start runs command in dir (empty: the current directory), its stderr
// going to stderr (nil: discarded). Output lines longer than maxLine bytes
// end the reading, as an exit does.
func Start(command, dir string, stderr io.Writer, maxLine int) (*Proc, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir = dir
	procgroup.Set(cmd)
	if stderr != nil {
		cmd.Stderr = stderr
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %q: %w", command, err)
	}
	p := &Proc{cmd: cmd, stdin: stdin, lines: make(chan []byte, 64), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 4096), maxLine)
		for sc.Scan() {
			select {
			case p.lines <- append([]byte(nil), sc.Bytes()...):
			case <-p.quit: // killed: read on to the end, keep nothing
			}
		}
		_ = cmd.Wait()
	}()
	return p, nil
}

// Write sends b to the process's input.
func (p *Proc) Write(b []byte) error {
	_, err := p.stdin.Write(b)
	return err
}

// Exited reports whether the process has ended and its output is read.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Next returns the next line the process writes: ErrExited when it ends
// first (after the lines it wrote before it ended), ErrTimeout when
// timeout fires first, ctx's error when ctx ends first.
func (p *Proc) Next(ctx context.Context, timeout <-chan time.Time) ([]byte, error) {
	select {
	case line := <-p.lines:
		return line, nil
	case <-p.done:
		// The reader queues every line before it is done.
		select {
		case line := <-p.lines:
			return line, nil
		default:
			return nil, ErrExited
		}
	case <-timeout:
		return nil, ErrTimeout
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Kill closes the process's input, ends its whole process group and
// waits until it is reaped.
func (p *Proc) Kill() {
	p.stop(0)
}

// Stop closes the process's input and gives it grace to exit on its own
// before ending its process group, and waits until it is reaped.
func (p *Proc) Stop(grace time.Duration) {
	p.stop(grace)
}

func (p *Proc) stop(grace time.Duration) {
	close(p.quit)
	_ = p.stdin.Close()
	if grace > 0 {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-p.done:
			return
		case <-t.C:
		}
	}
	_ = procgroup.Kill(p.cmd)
	<-p.done
}
