// Package chunks makes numbered data files, each depending only on its
// number (and the caller's seed), so that a generation can be stopped at
// any time and started again to go on, at any concurrency, or be spread
// over machines by giving each a range of numbers. A chunk file is
// written through a temporary file and renamed: it is whole or absent.
package chunks

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Prefix begins every chunk file's name.
const Prefix = "chunk-"

// Name is chunk i's file in dir: chunk-000042 and the suffix.
func Name(dir string, i int, suffix string) string {
	return filepath.Join(dir, fmt.Sprintf("%s%06d%s", Prefix, i, suffix))
}

// Exists reports whether name is there (a finished chunk).
func Exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// WriteAtomic writes name (in dir) through a temporary file in dir,
// renamed when write and the flush succeed, removed otherwise.
func WriteAtomic(dir, name string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(dir, ".chunk-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Done is the progress reported after each chunk written.
type Done struct {
	Chunk   int
	Items   int           // what the chunk holds (positions, decisions)
	Written int           // chunks written by this run so far
	Elapsed time.Duration // since the run started
}

// Report is what a run did.
type Report struct {
	Chunks  int // chunks written (those already there are skipped)
	Items   int
	Elapsed time.Duration
}

// Worker makes chunk i and returns what it holds, 0 when the chunk was
// there already. A worker is used by one goroutine at a time.
type Worker func(ctx context.Context, i int) (items int, err error)

// Run makes chunks from … to−1 with concurrency workers, each from
// newWorker (so that each holds its own searcher or buffers). progress,
// when not nil, is called after each chunk written, one call at a time.
// It stops at the first error; when ctx ends it, it returns ctx's error,
// and every chunk file left is whole.
func Run(ctx context.Context, from, to, concurrency int, newWorker func() Worker, progress func(Done)) (Report, error) {
	var next atomic.Int64
	next.Store(int64(from))
	var mu sync.Mutex // guards rep, firstErr and the progress calls
	var rep Report
	var firstErr error
	start := time.Now()
	var wg sync.WaitGroup
	for range max(concurrency, 1) {
		wg.Go(func() {
			work := newWorker()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= to {
					return
				}
				n, err := work(ctx, i)
				mu.Lock()
				if err != nil {
					if ctx.Err() == nil && firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				if n > 0 {
					rep.Chunks++
					rep.Items += n
					if progress != nil {
						progress(Done{Chunk: i, Items: n, Written: rep.Chunks, Elapsed: time.Since(start)})
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	if firstErr != nil {
		return rep, firstErr
	}
	return rep, ctx.Err()
}
