package match

import (
	"context"
	"math/bits"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/stdengine"
)

// TestFFOPositions: the FFO positions have the empties of the published
// set (20 to 26), and every published best move is legal.
func TestFFOPositions(t *testing.T) {
	wantEmpties := []int{20, 22, 22, 23, 23, 24, 24, 25, 25, 26}
	for i, p := range FFO40to49() {
		if got := p.State.Empties(); got != wantEmpties[i] {
			t.Errorf("%s: %d empties, want %d", p.Name, got, wantEmpties[i])
		}
		for _, sq := range p.Best {
			if !slices.Contains(p.State.LegalMoves(), sq) {
				t.Errorf("%s: published move %s is not legal", p.Name, othello.SquareName(sq, 8))
			}
		}
	}
	if got := FFO40to49()[3].Published(); got != "c7 g3 -12" {
		t.Errorf("FFO #43 published as %q", got)
	}
}

func TestAgrees(t *testing.T) {
	g3, _ := othello.ParseSquare("g3", 8)
	c7, _ := othello.ParseSquare("c7", 8)
	a1, _ := othello.ParseSquare("a1", 8)
	pos := SolvePosition{Best: []int{c7, g3}, Score: -12}
	v, w := -12.0, -10.0
	for _, c := range []struct {
		s    Solved
		want bool
	}{
		{Solved{Move: g3, Score: &v}, true},
		{Solved{Move: c7, Score: &v}, true},
		{Solved{Move: c7}, true}, // no score said: the move alone
		{Solved{Move: g3, Score: &w}, false},
		{Solved{Move: a1, Score: &v}, false},
		{Solved{Move: a1}, false},
	} {
		if got := pos.Agrees(c.s); got != c.want {
			t.Errorf("%s %v: %v, want %v", c.s.MoveName(), c.s.Score, got, c.want)
		}
	}
	if !(SolvePosition{}).Agrees(Solved{Move: a1}) {
		t.Error("nothing published: every answer agrees")
	}
}

// TestSolveOne: our engine at a depth that solves, in process, answers
// self-play positions with the exact score a searcher of its own finds,
// on a legal best move, and says how long it took.
func TestSolveOne(t *testing.T) {
	p, err := players.Parse("engine:depth=64,tt-bits=12,threads=1")
	if err != nil {
		t.Fatal(err)
	}
	positions := SelfPlaySolvePositions(46001, []int{10, 12}, 2)
	if len(positions) != 4 {
		t.Fatalf("%d positions, want 4", len(positions))
	}
	for _, pos := range positions {
		got, err := SolveOne(context.Background(), p, pos, time.Minute, players.Leg{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Score == nil || got.Took <= 0 {
			t.Fatalf("%s: %+v, want a score and a time", pos.Name, got)
		}
		pl, op := pos.State.Bitboards()
		moves := pos.State.LegalMoves()
		s := stdengine.NewSearcher(stdengine.Embedded(), 12)
		want := s.Search(context.Background(), pl, op, pos.State.Turn == othello.White, moves, stdengine.Limits{MaxDepth: 64})
		if !want.Exact || float64(want.Score) != *got.Score {
			t.Errorf("%s (%d empties): score %v, the searcher's %d (exact %v)", pos.Name, bits.OnesCount64(^(pl | op)), *got.Score, want.Score, want.Exact)
		}
	}
}

// TestSolveOneRefuses: an engine that cannot start is an error that
// names it, and nothing is timed.
func TestSolveOneRefuses(t *testing.T) {
	p, err := players.Parse("jsonline:exit 3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = SolveOne(context.Background(), p, FFO40to49()[0], time.Minute, players.Leg{})
	if err == nil || !strings.Contains(err.Error(), "warm-up") {
		t.Fatalf("err %v, want the warm-up's failure", err)
	}
}

// TestSelfPlaySolvePositionsAreRaces: every self-play position has a
// choice to make (a forced move may be answered at once), and the set is
// the same for the same seed.
func TestSelfPlaySolvePositionsAreRaces(t *testing.T) {
	a := SelfPlaySolvePositions(46009, []int{22}, 4)
	b := SelfPlaySolvePositions(46009, []int{22}, 4)
	if len(a) != 4 {
		t.Fatalf("%d positions, want 4", len(a))
	}
	for i, p := range a {
		if n := len(p.State.LegalMoves()); n < 2 {
			t.Errorf("%s: %d legal moves", p.Name, n)
		}
		if !slices.Equal(p.State.Cells, b[i].State.Cells) || p.State.Turn != b[i].State.Turn {
			t.Errorf("%s: another position the second time", p.Name)
		}
	}
}
