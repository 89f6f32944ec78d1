package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/cli"
)

func TestRunAnswersEveryLine(t *testing.T) {
	var reqs []string
	var legal [][]int
	for _, mode := range []string{"std", "anti", "grand", "octagon", "reversi"} {
		b, err := os.ReadFile("../../othello/wire/testdata/spec_" + mode + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			LegalMoves []int `json:"legal_moves"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, strings.TrimSpace(string(b)))
		legal = append(legal, r.LegalMoves)
	}
	// A pass request, a blank line (skipped) and two bad lines.
	pass := strings.Replace(reqs[0], `"legal_moves": [19, 26, 37, 44]`, `"legal_moves": []`, 1)
	reqs = append(reqs, pass, "", "not json", `{"board":[1],"color":1,"legal_moves":[],"game_mode":"std"}`)
	in := strings.Join(reqs, "\n") // no final newline: the last line still counts
	stdin := strings.NewReader(in)
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-depth", "3"}, cli.Env(nil), stdin, &out, &errb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 8 {
		t.Fatalf("got %d answers, want 8:\n%s\nstderr: %s", len(lines), out.String(), errb.String())
	}
	for i, want := range legal {
		var r struct{ Move int }
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil || !slices.Contains(want, r.Move) {
			t.Errorf("answer %d %q not in %v", i, lines[i], want)
		}
	}
	if lines[5] != `{"move":-1}` {
		t.Errorf("pass answer %q", lines[5])
	}
	if !strings.Contains(lines[6], `"kind":"malformed"`) || !strings.Contains(lines[7], `"kind":"impossible"`) {
		t.Errorf("error answers %q %q", lines[6], lines[7])
	}
}

func TestRunFlags(t *testing.T) {
	for _, args := range [][]string{{"-tt-bits", "40"}, {"-depth", "-1"}, {"extra"}, {"-nope"},
		{"-std-sel", "6"}, {"-std-selective", "-1"}, {"-without", "etc,nope"}, {"-model", "/nonexistent"}, {"-model", "/dev/null"},
		{"-threads", "0"}, {"-threads", "65"}} {
		stdin := strings.NewReader("")
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, cli.Env(nil), stdin, &out, &errb); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestRunStdSettings: every part of the std search can be switched off,
// and each setting, and a parallel search, still answers legal moves.
func TestRunStdSettings(t *testing.T) {
	req := `{"board":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,1,0,0,0,0,0,0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"color":1,"legal_moves":[19,26,37,44],"game_mode":"std","board_size":8,"remaining_ms":60000,"budget_ms":200}`
	for _, args := range [][]string{{"-without", "etc,stability,sort-search,incremental", "-depth", "6"}, {"-std-sel", "5", "-std-selective", "0", "-depth", "6"}, {"-threads", "2", "-depth", "6"}, {"-ponder", "-depth", "6"}} {
		stdin := strings.NewReader(req + "\n")
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, cli.Env(nil), stdin, &out, &errb); err != nil {
			t.Fatalf("run(%q): %v\n%s", args, err, errb.String())
		}
		if !regexp.MustCompile(`^\{"move": ?(19|26|37|44)\}\n$`).MatchString(out.String()) {
			t.Errorf("run(%q) answered %q", args, out.String())
		}
	}
}
