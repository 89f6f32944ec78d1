package train

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/botarena/gamebot/othello"
)

func TestSelfPlayAndFit(t *testing.T) {
	s := NewEngine(GenOptions{Depth: 1, SolveAt: 8})
	rng := rand.New(rand.NewPCG(9, 9))
	var all []Sample
	for range 30 {
		g := SelfPlayGame(context.Background(), rng, GenOptions{Depth: 1, SolveAt: 8, RandomMax: 2}, s)
		if len(g) == 0 {
			t.Fatal("a game gave no positions")
		}
		// Every position of one game has the same result up to the mover's
		// sign, and at least as many discs as the result says.
		for _, x := range g {
			if x.P&x.O != 0 || x.Empties < 0 || x.Empties > 52 {
				t.Fatalf("bad sample %+v", x)
			}
			if abs8(x.Target) != abs8(g[0].Target) {
				t.Fatalf("targets of one game differ: %d vs %d", x.Target, g[0].Target)
			}
		}
		all = append(all, g...)
	}
	var buf bytes.Buffer
	if err := WriteSamples(&buf, all); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(&buf)
	if err != nil || !slices.Equal(back, all) {
		t.Fatalf("samples changed in the round trip (%v)", err)
	}
	if _, err := ReadSamples(bytes.NewReader(make([]byte, 7))); err == nil {
		t.Fatal("a truncated record was read")
	}
	// The fit must explain the data better than predicting 0.
	var zero float64
	for _, x := range all {
		zero += float64(x.Target) * float64(x.Target)
	}
	zero = math.Sqrt(zero / float64(len(all)))
	var last float64
	w, _ := FitPatterns(context.Background(), all, FitOptions{Epochs: 5, Rate: 0.003, Log: func(_ int, train, _ float64) { last = train }}, rand.New(rand.NewPCG(1, 1)))
	if !(last < zero) || len(w) != othello.PatternStages*othello.PatternStageLen() {
		t.Fatalf("fit rmse %.2f, zero model %.2f", last, zero)
	}
}

func abs8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}

// TestFitMirror: with Mirror the fit sees each position's mirror image as
// well, so the model scores a position and its mirror image alike, which a
// fit on the positions alone does not.
func TestFitMirror(t *testing.T) {
	all := quickSamples(20, 5)
	asym := func(mirror bool) float64 {
		w, _ := FitPatterns(context.Background(), all, FitOptions{Epochs: 4, Rate: 0.003, Mirror: mirror}, rand.New(rand.NewPCG(1, 1)))
		var buf bytes.Buffer
		if err := othello.EncodePatternModel(&buf, w); err != nil {
			t.Fatal(err)
		}
		m, err := othello.DecodePatternModel(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		var d float64
		for _, x := range all {
			a := m.Eval(x.P, x.O, int(x.Empties), int(x.Mob))
			b := m.Eval(othello.MirrorImage(x.P), othello.MirrorImage(x.O), int(x.Empties), int(x.Mob))
			d += math.Abs(a - b)
		}
		return d / float64(len(all))
	}
	plain, mirrored := asym(false), asym(true)
	if !(mirrored < plain/2) {
		t.Fatalf("mean |eval − eval of the mirror image|: %.2f discs with Mirror, %.2f without", mirrored, plain)
	}
	t.Logf("mean |eval − eval of the mirror image|: %.2f discs with Mirror, %.2f without", mirrored, plain)
}

// TestModelErrors: a model of zero weights predicts 0, so its error at each
// number of empties is the root mean square of the results there; a broken
// model file is an error.
func TestModelErrors(t *testing.T) {
	all := quickSamples(5, 3)
	var buf bytes.Buffer
	if err := othello.EncodePatternModel(&buf, make([]int16, othello.PatternStages*othello.PatternStageLen())); err != nil {
		t.Fatal(err)
	}
	got, err := ModelErrors(all, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var sq [61]float64
	var n [61]int
	for _, x := range all {
		sq[x.Empties] += float64(x.Target) * float64(x.Target)
		n[x.Empties]++
	}
	for e := range got {
		want := 0.0
		if n[e] > 0 {
			want = math.Sqrt(sq[e] / float64(n[e]))
		}
		if got[e].N != n[e] || math.Abs(got[e].RMSE-want) > 1e-9 {
			t.Fatalf("empties %d: got %d samples, rmse %.3f; want %d, %.3f", e, got[e].N, got[e].RMSE, n[e], want)
		}
	}
	if _, err := ModelErrors(all, []byte("not a model")); err == nil {
		t.Fatal("a broken model file was accepted")
	}
}

// quickSamples plays that many fast self-play games (depth 1, exact from 8
// empties) from seed and returns their samples.
func quickSamples(games int, seed uint64) []Sample {
	s := NewEngine(GenOptions{Depth: 1, SolveAt: 8})
	rng := rand.New(rand.NewPCG(seed, seed))
	var all []Sample
	for range games {
		all = append(all, SelfPlayGame(context.Background(), rng, GenOptions{Depth: 1, SolveAt: 8, RandomMax: 2}, s)...)
	}
	return all
}
