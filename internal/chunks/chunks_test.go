package chunks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

func worker(dir string, calls *atomic.Int64) func() Worker {
	return func() Worker {
		return func(ctx context.Context, i int) (int, error) {
			name := Name(dir, i, ".txt")
			if Exists(name) {
				return 0, nil
			}
			calls.Add(1)
			return i + 1, WriteAtomic(dir, name, func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "chunk %d\n", i)
				return err
			})
		}
	}
}

func TestRunResumes(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	var seen []int
	rep, err := Run(t.Context(), 2, 5, 2, worker(dir, &calls), func(d Done) { seen = append(seen, d.Chunk) })
	if err != nil || rep.Chunks != 3 || rep.Items != 3+4+5 || len(seen) != 3 {
		t.Fatalf("%+v, %v, progress %v", rep, err, seen)
	}
	rep, err = Run(t.Context(), 0, 6, 3, worker(dir, &calls), nil)
	if err != nil || rep.Chunks != 3 || calls.Load() != 6 {
		t.Fatalf("resumed: %+v, %v, %d calls", rep, err, calls.Load())
	}
	b, _ := os.ReadFile(Name(dir, 4, ".txt"))
	if string(b) != "chunk 4\n" || filepath.Base(Name(dir, 4, ".txt")) != "chunk-000004.txt" {
		t.Fatalf("chunk 4: %q", b)
	}
}

func TestRunStops(t *testing.T) {
	boom := errors.New("boom")
	_, err := Run(t.Context(), 0, 10, 2, func() Worker {
		return func(context.Context, int) (int, error) { return 0, boom }
	}, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Run(ctx, 0, 10, 2, worker(t.TempDir(), new(atomic.Int64)), nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// A failed write leaves neither the chunk nor a temporary file.
func TestWriteAtomicFails(t *testing.T) {
	dir := t.TempDir()
	name := Name(dir, 0, ".txt")
	err := WriteAtomic(dir, name, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk full")
	})
	if err == nil || Exists(name) {
		t.Fatal("a failed write left its chunk")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}
