package train

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/botarena/gamebot/othello/std"
)

func testSearcher(t *testing.T) *std.Searcher {
	m, err := std.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return std.NewSearcher(m, 14)
}

func quickGames(t *testing.T, n int, seed uint64) []Sample {
	s := testSearcher(t)
	var all []Sample
	opt := GenOptions{Depth: 1, Sel: std.SelExact, SolveAt: 8, RandomMax: 2}
	for i := range n {
		g := Game(context.Background(), rand.New(rand.NewPCG(seed, uint64(i))), opt, s)
		if len(g) == 0 {
			t.Fatal("a game gave no positions")
		}
		// Every position of one game has the same result up to the mover's
		// sign; positions the search solved carry the exact score, which
		// perfect play from there on makes the final result.
		for _, x := range g {
			if x.P&x.O != 0 || x.Empties < 0 || x.Empties > 52 {
				t.Fatalf("bad sample %+v", x)
			}
			if abs8(x.Final) != abs8(g[0].Final) {
				t.Fatalf("results of one game differ: %d vs %d", x.Final, g[0].Final)
			}
			if x.Exact != (x.Empties <= 8) || x.Exact && x.Score != x.Final {
				t.Fatalf("exact sample %+v", x)
			}
		}
		all = append(all, g...)
	}
	return all
}

func abs8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}

func TestSamplesRoundTrip(t *testing.T) {
	all := quickGames(t, 5, 1)
	var buf bytes.Buffer
	if err := WriteSamples(&buf, all); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(bytes.NewReader(buf.Bytes()))
	if err != nil || !slices.Equal(back, all) {
		t.Fatalf("samples changed in the round trip (%v)", err)
	}
	for _, bad := range [][]byte{buf.Bytes()[:buf.Len()-3], make([]byte, 28), append([]byte(chunkMagic), make([]byte, 16)...)} {
		if _, err := ReadSamples(bytes.NewReader(bad)); err == nil {
			t.Errorf("%d bad bytes were read", len(bad))
		}
	}
}

// TestChunksResume: a chunk is the same whoever writes it, an existing
// chunk is skipped, and an interrupted chunk leaves no file behind.
func TestChunksResume(t *testing.T) {
	dir := t.TempDir()
	opt := GenOptions{Depth: 1, Sel: std.SelExact, SolveAt: 6}
	s := testSearcher(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := GenChunk(ctx, dir, 0, 3, 7, opt, s); err == nil {
		t.Fatal("a cancelled chunk succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("an interrupted chunk left %d files", len(ents))
	}
	n, err := GenChunk(context.Background(), dir, 0, 3, 7, opt, s)
	if err != nil || n == 0 {
		t.Fatalf("chunk 0: %d, %v", n, err)
	}
	first, _ := os.ReadFile(ChunkName(dir, 0))
	if n, err := GenChunk(context.Background(), dir, 0, 3, 7, opt, s); n != 0 || err != nil {
		t.Fatalf("an existing chunk was played again: %d, %v", n, err)
	}
	other := t.TempDir()
	if _, err := GenChunk(context.Background(), other, 0, 3, 7, opt, testSearcher(t)); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(ChunkName(other, 0)); !bytes.Equal(first, again) {
		t.Fatal("the same chunk differs between two runs")
	}
	if _, err := GenChunk(context.Background(), dir, 1, 2, 7, opt, s); err != nil {
		t.Fatal(err)
	}
	all, files, err := ReadChunks(dir)
	if err != nil || files != 2 || len(all) < n {
		t.Fatalf("ReadChunks: %d samples in %d files, %v", len(all), files, err)
	}
}

// TestFitLearns: the fit explains the data better than predicting 0, and
// its weights make a valid model.
func TestFitLearns(t *testing.T) {
	all := quickGames(t, 30, 2)
	var zero float64
	for _, x := range all {
		zero += float64(x.Final) * float64(x.Final)
	}
	zero = math.Sqrt(zero / float64(len(all)))
	var last float64
	w, err := Fit(context.Background(), all, FitOptions{Epochs: 4, Rate: 0.003, ScoreWeight: 0.5, Mirror: true, Log: func(_ int, train, _ float64) { last = train }}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || !(last < zero) {
		t.Fatalf("fit rmse %.2f, zero model %.2f (%v)", last, zero, err)
	}
	if _, err := std.NewModel(w, false); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, all, FitOptions{Epochs: 1, Rate: 0.003}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Fatal("a cancelled fit succeeded")
	}
}

// TestModelErrorsExact: a model is scored against the final results, row
// by row.
func TestModelErrorsExact(t *testing.T) {
	all := quickGames(t, 5, 3)
	m, err := std.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	st := ModelErrors(all, m)
	n := 0
	for _, s := range st {
		n += s.N
		if s.N > 0 && !(s.RMSE >= 0) {
			t.Fatalf("rmse %v", s.RMSE)
		}
	}
	if n != len(all) {
		t.Fatalf("%d samples scored of %d", n, len(all))
	}
}
