package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type line struct {
	Type string `json:"type"`
	N    int    `json:"n,omitempty"`
}

// TestWriteScan: lines written are numbered from 1 and read back with
// their type; blank lines count but are skipped.
func TestWriteScan(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range 3 {
		if n := w.Put(line{Type: "a", N: i}); n != i+1 {
			t.Fatalf("line %d numbered %d", i+1, n)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := strings.Replace(buf.String(), "\n", "\n\n", 1)
	var got []int
	err := Scan(strings.NewReader(data), func(n int, typ string, b []byte) error {
		var l line
		if typ != "a" || Strict(b, &l) != nil {
			t.Errorf("line %d: %q %s", n, typ, b)
		}
		got = append(got, n)
		return nil
	})
	if err != nil || len(got) != 3 || got[0] != 1 || got[1] != 3 {
		t.Errorf("lines %v, err %v", got, err)
	}
}

func TestReadErrors(t *testing.T) {
	for data, want := range map[string]string{
		"":                        "empty record",
		"[1]":                     "line 1: not a JSON object",
		`{"type":"a"}` + "\nnope": "line 2: not a JSON object",
	} {
		err := Scan(strings.NewReader(data), func(int, string, []byte) error { return nil })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", data, err, want)
		}
	}
	var l line
	for _, b := range []string{`{"type":"a","x":1}`, `{"type":"a"} {}`} {
		if Strict([]byte(b), &l) == nil {
			t.Errorf("Strict(%s) accepted", b)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorKept(t *testing.T) {
	w := NewWriter(failWriter{})
	w.Put(line{Type: "a"})
	if err := w.Close(); err == nil {
		t.Error("a failing output must fail Close")
	}
}

// TestFiles: a folder is read in name order, a record found by number.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a"} {
		if err := os.WriteFile(filepath.Join(dir, n+".jsonl"), []byte(`{"type":"`+n+`"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := func(io.Reader) (int, error) { return 0, errors.New("bad line") }
	if _, err := ReadFile(filepath.Join(dir, "a.jsonl"), bad); err == nil || !strings.Contains(err.Error(), "a.jsonl: bad line") {
		t.Errorf("ReadFile: %v, want the file named", err)
	}
	readOne := func(path string) (int, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		return int(b[9]-'a') + 1, nil
	}
	all, err := ReadDir(dir, readOne)
	if err != nil || len(all) != 2 || all[0] != 1 || all[1] != 2 {
		t.Fatalf("ReadDir: %v, %v", all, err)
	}
	num := func(v int) int { return v }
	if v, err := Find(dir, 2, "game", readOne, func(d string) ([]int, error) { return ReadDir(d, readOne) }, num); err != nil || v != 2 {
		t.Errorf("Find 2: %v, %v", v, err)
	}
	if _, err := Find(dir, 3, "game", readOne, func(d string) ([]int, error) { return ReadDir(d, readOne) }, num); err == nil || !strings.Contains(err.Error(), "no game 3") {
		t.Errorf("Find 3: %v", err)
	}
	if _, err := ReadDir(t.TempDir(), readOne); err == nil {
		t.Error("an empty folder must be an error")
	}
	if Millis(1234567*time.Nanosecond) != 1.235 {
		t.Errorf("Millis = %v", Millis(1234567*time.Nanosecond))
	}
}
