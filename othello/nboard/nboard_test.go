package nboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello/wire"
)

func TestGGF(t *testing.T) {
	b := make([]int, 64)
	b[27], b[28], b[35], b[36] = 2, 1, 1, 2
	g, err := GGF(b, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := "BO[8 ---------------------------O*------*O--------------------------- *]"
	if !strings.Contains(g, want) {
		t.Fatalf("%s lacks %s", g, want)
	}
	if _, err := GGF(make([]int, 100), 1); err == nil {
		t.Fatal("10x10 accepted")
	}
}

// TestAskScriptedEngine drives a shell script that answers like an NBoard
// engine (status lines first, then "=== move/eval/time").
func TestAskScriptedEngine(t *testing.T) {
	script := `while read cmd rest; do case "$cmd" in go) echo "status thinking"; echo "=== F5/0.5/0.1";; esac; done`
	e := &Engine{Command: script, Depth: 3}
	defer e.Close()
	b := make([]int, 64)
	b[27], b[28], b[35], b[36] = 2, 1, 1, 2
	req := &wire.Request{Board: b, Color: 1, LegalMoves: []int{19, 26, 37, 44}, GameMode: "std", BoardSize: 8}
	for range 2 {
		a, err := e.Move(context.Background(), req, 2*time.Second)
		if err != nil || a.Move != 37 || a.Score == nil || *a.Score != 0.5 {
			t.Fatalf("answer %+v, %v; want 37 (f5), evaluated 0.5", a, err)
		}
	}
	req.LegalMoves = []int{}
	if a, err := e.Move(context.Background(), req, time.Second); err != nil || a.Move != -1 {
		m := a.Move
		t.Fatalf("pass: %d %v", m, err)
	}
	req.GameMode, req.BoardSize = "grand", 10
	if _, err := e.Move(context.Background(), req, time.Second); err == nil {
		t.Fatal("grand accepted")
	}
}
