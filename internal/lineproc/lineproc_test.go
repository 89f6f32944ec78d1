package lineproc

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestLines(t *testing.T) {
	p, err := Start(`while read l; do echo "got $l"; done`, "", nil, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	for _, in := range []string{"a", "b"} {
		if err := p.Write([]byte(in + "\n")); err != nil {
			t.Fatal(err)
		}
		line, err := p.Next(context.Background(), nil)
		if err != nil || string(line) != "got "+in {
			t.Fatalf("%q %v, want %q", line, err, "got "+in)
		}
	}
}

// TestExitKeepsLastLines: lines written just before an exit are still
// read; after them the process has exited.
func TestExitKeepsLastLines(t *testing.T) {
	p, err := Start(`echo one; echo two`, "", nil, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	for _, want := range []string{"one", "two"} {
		if line, err := p.Next(context.Background(), nil); err != nil || string(line) != want {
			t.Fatalf("%q %v, want %q", line, err, want)
		}
	}
	if _, err := p.Next(context.Background(), nil); !errors.Is(err, ErrExited) {
		t.Fatalf("after the last line: %v", err)
	}
	if !p.Exited() {
		t.Error("not exited")
	}
}

// TestTimeoutAndCancel: a silent process times out or is cancelled, and
// Kill ends it (with a child of its own, and more output than anyone
// reads) without hanging.
func TestTimeoutAndCancel(t *testing.T) {
	p, err := Start(`yes | head -c 100000 >/dev/null; sleep 30 & sleep 30`, "", nil, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	timer := make(chan time.Time, 1)
	timer <- time.Time{}
	if _, err := p.Next(context.Background(), timer); !errors.Is(err, ErrTimeout) {
		t.Fatalf("timer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Next(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	p.Kill()
	if !p.Exited() {
		t.Error("not exited after Kill")
	}
	// An unread flood of lines does not keep Kill waiting.
	q, err := Start(`yes`, "", nil, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	q.Kill()
}

// TestStopGrace: a process that exits on its own when its input closes
// is not killed; Stop waits for it.
func TestStopGrace(t *testing.T) {
	p, err := Start(`read l; echo bye`, "", nil, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	p.Stop(5 * time.Second)
	if !p.Exited() {
		t.Error("not exited after Stop")
	}
}
