// Package jsonl reads and writes game records as JSON Lines: one JSON
// object a line, each with a "type", lines numbered from 1. It knows no
// game: each game's record package (battleship/record, giretra/record)
// declares its line types and checks what they say.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// MaxLine bounds one line of a record (a request body is a few KB).
const MaxLine = 16 << 20

// Writer is a record's output: one JSON object a line, lines numbered
// from 1, the first write error kept (later lines are dropped) and
// returned by Close. Its users serialise calls.
type Writer struct {
	w    *bufio.Writer
	c    io.Closer
	line int
	err  error
}

// NewWriter writes to w; Close closes it if it is an io.Closer.
func NewWriter(w io.Writer) *Writer {
	l := &Writer{w: bufio.NewWriterSize(w, 64<<10)}
	if c, ok := w.(io.Closer); ok {
		l.c = c
	}
	return l
}

// Put writes one line and returns its number.
func (l *Writer) Put(v any) int {
	if l.err != nil {
		return l.line
	}
	b, err := json.Marshal(v)
	if err == nil {
		b = append(b, '\n')
		_, err = l.w.Write(b)
	}
	if err != nil {
		l.err = err
		return l.line
	}
	l.line++
	return l.line
}

// Close flushes and closes the output; it returns the first error.
func (l *Writer) Close() error {
	ferr := l.w.Flush()
	if l.c != nil {
		ferr = errors.Join(ferr, l.c.Close())
	}
	return errors.Join(l.err, ferr)
}

// Millis is a duration in milliseconds, to the microsecond.
func Millis(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// Scan calls line with each non-blank line of a record, its number (from
// 1) and its "type", and stops at the first error. A line longer than
// MaxLine, or not a JSON object, is an error; so is an empty record.
func Scan(r io.Reader, line func(n int, typ string, b []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(b, &probe); err != nil {
			return LineError(n, "not a JSON object: %v", err)
		}
		if err := line(n, probe.Type, b); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return LineError(n+1, "%v", err)
	}
	if n == 0 {
		return fmt.Errorf("empty record")
	}
	return nil
}

// Strict decodes one line, refusing fields the line type does not have.
func Strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the object")
	}
	return nil
}

// LineError is a problem at line n.
func LineError(n int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n, fmt.Sprintf(format, args...))
}

// ReadFile reads the record at path with read, errors naming the file.
func ReadFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// ReadDir reads every *.jsonl file in dir with read, in file-name order;
// a folder without one is an error.
func ReadDir[T any](dir string, read func(string) (T, error)) ([]T, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []T
	for _, n := range names {
		v, err := read(n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no record (*.jsonl)", dir)
	}
	return out, nil
}

// Find opens path, a record or a folder of them, and returns the record
// numbered n (0: the first): readOne reads a file, readAll a folder, num
// gives a record's number and what names the numbered thing ("game").
func Find[T any](path string, n int, what string, readOne func(string) (T, error), readAll func(string) ([]T, error), num func(T) int) (T, error) {
	var zero T
	st, err := os.Stat(path)
	if err != nil {
		return zero, err
	}
	if !st.IsDir() {
		v, err := readOne(path)
		if err != nil {
			return zero, err
		}
		if n != 0 && num(v) != n {
			return zero, fmt.Errorf("%s holds %s %d, not %d", path, what, num(v), n)
		}
		return v, nil
	}
	all, err := readAll(path)
	if err != nil {
		return zero, err
	}
	if n == 0 {
		return all[0], nil
	}
	for _, v := range all {
		if num(v) == n {
			return v, nil
		}
	}
	return zero, fmt.Errorf("%s: no %s %d", path, what, n)
}
