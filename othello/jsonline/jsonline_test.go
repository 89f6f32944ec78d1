package jsonline

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
)

func specLine(t *testing.T, mode string) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/spec_" + mode + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestServeLines(t *testing.T) {
	eng := othello.NewEngine(othello.EngineOptions{TTBits: 12, MaxDepth: 2})
	long := `{"board":[` + strings.Repeat("0,", MaxLine/2) + `0]}`
	in := "\n  \n" + specLine(t, "std") + "\r\n" + long + "\n" + specLine(t, "grand") + "\n"
	var out bytes.Buffer
	if err := Serve(context.Background(), eng, strings.NewReader(in), &out, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("answers %q", lines)
	}
	if m, err := ParseReply([]byte(lines[0]), 8); err != nil || !(m == 19 || m == 26 || m == 37 || m == 44) {
		t.Errorf("std answer %q", lines[0])
	}
	if !strings.Contains(lines[1], `"status":413`) {
		t.Errorf("long line answer %q", lines[1])
	}
	if m, err := ParseReply([]byte(lines[2]), 10); err != nil || m < 0 {
		t.Errorf("grand answer %q", lines[2])
	}
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		in   string
		size int
		want int
		ok   bool
	}{
		{`{"move":19}`, 8, 19, true}, {`{"move": "d3"}`, 8, 19, true}, {`{"move":"D3"}`, 8, 19, true},
		{`{"move":-1}`, 8, -1, true}, {`{"move":"pass"}`, 8, -1, true}, {`{"move":"J0"}`, 10, 99, true},
		{`{"move":64}`, 8, 0, false}, {`{"move":-2}`, 8, 0, false}, {`{"move":"z9"}`, 8, 0, false},
		{`{"mv":3}`, 8, 0, false}, {`3`, 8, 0, false}, {``, 8, 0, false}, {`{"move":1.5}`, 8, 0, false},
		{`{"move":[1]}`, 8, 0, false},
	}
	for _, tc := range tests {
		got, err := ParseReply([]byte(tc.in), tc.size)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseReply(%q) = %d, %v", tc.in, got, err)
		}
		if err != nil && !errors.Is(err, ErrEngine) {
			t.Errorf("ParseReply(%q) error %v is not ErrEngine", tc.in, err)
		}
	}
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{`{"move":19}`, `{"move":"d3"}`, `{"move":-1}`, `{"move":"J0"}`, `{}`, `{"move":1e99}`} {
		f.Add([]byte(s), 8)
		f.Add([]byte(s), 10)
	}
	f.Fuzz(func(t *testing.T, b []byte, size int) {
		if size != 8 && size != 10 {
			return
		}
		m, err := ParseReply(b, size)
		if err == nil && (m < -1 || m >= size*size) {
			t.Fatalf("ParseReply(%q) = %d outside the board", b, m)
		}
	})
}

// TestProc drives real engine commands: one that keeps running, one that
// answers once and exits (restarted for the next question), a silent one
// (killed at the deadline) and one that answers garbage.
func TestProc(t *testing.T) {
	req := map[string]any{"legal_moves": []int{19}}
	persistent := NewProc(`while read l; do echo '{"move": 19}'; done`, nil)
	defer persistent.Close()
	once := NewProc(`read l; echo '{"move": "d3"}'`, nil)
	defer once.Close()
	for i := range 3 {
		if m, err := persistent.Ask(context.Background(), req, 8, 2*time.Second); err != nil || m != 19 {
			t.Fatalf("persistent #%d: %d %v", i, m, err)
		}
		if m, err := once.Ask(context.Background(), req, 8, 2*time.Second); err != nil || m != 19 {
			t.Fatalf("one-shot #%d: %d %v", i, m, err)
		}
	}
	silent := NewProc(`sleep 20`, nil)
	defer silent.Close()
	start := time.Now()
	if _, err := silent.Ask(context.Background(), req, 8, 100*time.Millisecond); !errors.Is(err, ErrEngine) || time.Since(start) > 5*time.Second {
		t.Fatalf("silent engine: %v after %v", err, time.Since(start))
	}
	garbage := NewProc(`while read l; do echo 'hello'; done`, nil)
	defer garbage.Close()
	if _, err := garbage.Ask(context.Background(), req, 8, time.Second); !errors.Is(err, ErrEngine) {
		t.Fatalf("garbage: %v", err)
	}
}
