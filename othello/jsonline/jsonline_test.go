package jsonline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

func specLine(t *testing.T, mode string) string {
	t.Helper()
	b, err := os.ReadFile("../wire/testdata/spec_" + mode + ".json")
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
	if a, err := wire.ParseReply([]byte(lines[0]), 8); err != nil || !(a.Move == 19 || a.Move == 26 || a.Move == 37 || a.Move == 44) {
		t.Errorf("std answer %q", lines[0])
	}
	if !strings.Contains(lines[1], `"kind":"too large"`) {
		t.Errorf("long line answer %q", lines[1])
	}
	if a, err := wire.ParseReply([]byte(lines[2]), 10); err != nil || a.Move < 0 {
		t.Errorf("grand answer %q", lines[2])
	}
}

// TestEngine drives real engine commands: one that keeps running, one that
// answers once and exits (restarted for the next question), a silent one
// (killed at the deadline) and one that answers garbage.
func TestEngine(t *testing.T) {
	req := &wire.Request{LegalMoves: []int{19}, BoardSize: 8}
	persistent := &Engine{Command: `while read l; do echo '{"move": 19}'; done`}
	defer persistent.Close()
	once := &Engine{Command: `read l; echo '{"move": "d3"}'`}
	defer once.Close()
	for i := range 3 {
		if a, err := persistent.Move(context.Background(), req, 2*time.Second); err != nil || a.Move != 19 {
			m := a.Move
			t.Fatalf("persistent #%d: %d %v", i, m, err)
		}
		if a, err := once.Move(context.Background(), req, 2*time.Second); err != nil || a.Move != 19 {
			m := a.Move
			t.Fatalf("one-shot #%d: %d %v", i, m, err)
		}
	}
	silent := &Engine{Command: `sleep 20`}
	defer silent.Close()
	start := time.Now()
	if _, err := silent.Move(context.Background(), req, 100*time.Millisecond); !errors.Is(err, wire.ErrEngine) || time.Since(start) > 5*time.Second {
		t.Fatalf("silent engine: %v after %v", err, time.Since(start))
	}
	garbage := &Engine{Command: `while read l; do echo 'hello'; done`}
	defer garbage.Close()
	if _, err := garbage.Move(context.Background(), req, time.Second); !errors.Is(err, wire.ErrEngine) {
		t.Fatalf("garbage: %v", err)
	}
}

// TestServePondering plays a game through ServePondering, the opponent
// answering after a pause in which the engine ponders; the answers are
// legal, and the end of the input stops the ponder (a timed ponder has no
// depth to stop at, so Serve would not return otherwise).
func TestServePondering(t *testing.T) {
	eng := othello.NewEngine(othello.EngineOptions{TTBits: 14, FixedTime: 5 * time.Millisecond, Pool: 1})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- ServePondering(context.Background(), eng, inR, outW, slog.New(slog.DiscardHandler)) }()
	answers := bufio.NewScanner(outR)
	st := othello.NewState(othello.Std)
	rng := rand.New(rand.NewPCG(5, 6))
	for ours := true; !st.Over(); ours = !ours {
		legal := st.LegalMoves()
		if len(legal) == 0 {
			if err := st.Play(othello.Pass); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !ours {
			time.Sleep(2 * time.Millisecond) // the engine ponders meanwhile
			if err := st.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := json.Marshal(wire.NewRequest(st, time.Minute, time.Second, 1, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		if !answers.Scan() {
			t.Fatalf("no answer: %v", answers.Err())
		}
		a, err := wire.ParseReply(answers.Bytes(), 8)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Play(a.Move); err != nil {
			t.Fatal(err)
		}
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
