package train

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/botarena/gamebot/othello/stdengine"
)

func testSearcher(t *testing.T) *stdengine.Searcher {
	m := stdengine.Embedded()
	return stdengine.NewSearcher(m, 14)
}

func quickOptions() GenOptions {
	return GenOptions{Depth: 1, Sel: stdengine.SelExact, SolveAt: 8, RandomMax: 2, RandomSpan: 20}
}

// quickGames plays n games and returns them with their samples.
func quickGames(t *testing.T, n int, seed uint64) ([]GameRecord, []Sample) {
	t.Helper()
	s := testSearcher(t)
	var games []GameRecord
	var all []Sample
	for i := range n {
		g, ok := Game(context.Background(), rand.New(rand.NewPCG(seed, uint64(i))), quickOptions(), s)
		if !ok {
			t.Fatal("a game was not played")
		}
		before := len(all)
		var err error
		if all, err = g.Samples(false, all); err != nil {
			t.Fatal(err)
		}
		checkSamples(t, &g, all[before:])
		games = append(games, g)
	}
	return games, all
}

// checkSamples: every searched move gave a sample; after the last random
// move every position has the game's result up to the mover's sign, and
// a position the search solved has its exact score as that result
// (perfect play from there on); before it, the label is the score.
func checkSamples(t *testing.T, g *GameRecord, samples []Sample) {
	t.Helper()
	searched, labelled := 0, 0
	last := g.LastRandom()
	for i, m := range g.Moves {
		if m.Random {
			if i >= openingPlies+quickOptions().RandomSpan {
				t.Fatalf("random move at ply %d", i)
			}
			continue
		}
		if i < openingPlies {
			t.Fatalf("searched move %d in the opening", i)
		}
		x := samples[searched]
		searched++
		if x.P&x.O != 0 || x.Empties < 0 || x.Empties > 52 {
			t.Fatalf("bad sample %+v", x)
		}
		if x.Exact != (x.Empties <= 8) || x.Exact && x.Score != x.Final {
			t.Fatalf("exact sample %+v", x)
		}
		if i < last {
			if x.Final != x.Score {
				t.Fatalf("a position before a random move is labelled %d, not its score %d", x.Final, x.Score)
			}
			continue
		}
		if abs8(x.Final) != abs8(samples[len(samples)-1].Final) {
			t.Fatalf("results of one game differ: %d vs %d", x.Final, samples[len(samples)-1].Final)
		}
		labelled++
	}
	if searched != len(samples) || labelled == 0 {
		t.Fatalf("%d samples for %d searched moves, %d labelled by the result", len(samples), searched, labelled)
	}
}

func abs8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}

func TestSamplesRoundTrip(t *testing.T) {
	_, all := quickGames(t, 5, 1)
	var buf bytes.Buffer
	if err := WriteSamples(&buf, all); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(bytes.NewReader(buf.Bytes()))
	if err != nil || !slices.Equal(back, all) {
		t.Fatalf("samples changed in the round trip (%v)", err)
	}
	for _, bad := range [][]byte{buf.Bytes()[:buf.Len()-3], make([]byte, 28), append([]byte(samplesMagic), make([]byte, 16)...)} {
		if _, err := ReadSamples(bytes.NewReader(bad)); err == nil {
			t.Errorf("%d bad bytes were read", len(bad))
		}
	}
}

// TestGamesRoundTrip: games written and read back are the same games,
// about two bytes a position; a game whose moves are not legal, or that
// stops before its end, does not replay.
func TestGamesRoundTrip(t *testing.T) {
	games, all := quickGames(t, 20, 4)
	h := ChunkHeader{Seed: 4, Chunk: 0, Games: len(games), Model: "x", Options: quickOptions()}
	var buf bytes.Buffer
	if err := WriteGames(&buf, h, games); err != nil {
		t.Fatal(err)
	}
	if per := float64(buf.Len()) / float64(len(all)); per > 2.5 {
		t.Errorf("%.2f bytes a position", per)
	}
	h2, back, err := ReadGames(bytes.NewReader(buf.Bytes()))
	if err != nil || h2 != h || !slices.EqualFunc(back, games, func(a, b GameRecord) bool { return slices.Equal(a.Moves, b.Moves) }) {
		t.Fatalf("games changed in the round trip (%v)", err)
	}
	g := games[0]
	short := GameRecord{Moves: g.Moves[:len(g.Moves)-1]}
	if _, err := short.Replay(nil); err == nil {
		t.Error("a game cut short replayed")
	}
	bad := GameRecord{Moves: slices.Clone(g.Moves)}
	bad.Moves[0].Square = 0 // a1 is never legal at the start
	if _, err := bad.Replay(nil); err == nil {
		t.Error("an illegal move replayed")
	}
	var one []byte
	one = AppendGame(one, &g)
	for _, b := range [][]byte{one[:len(one)-1], {0}, {61}, append([]byte{1}, plyExact|plyRandom)} {
		if _, _, err := ReadGame(b); err == nil {
			t.Errorf("% x was read", b)
		}
	}
}

// TestChunksResume: a chunk is the same whoever writes it, at any
// concurrency; an existing chunk is skipped, and an interrupted run
// leaves no partial file behind.
func TestChunksResume(t *testing.T) {
	m := stdengine.Embedded()
	dir := t.TempDir()
	cfg := GenConfig{Dir: dir, Chunks: 3, Games: 3, Seed: 7, Concurrency: 2, TTBits: 12, Model: m, Options: quickOptions()}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Generate(ctx, cfg, nil); err == nil {
		t.Fatal("a cancelled generation succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("an interrupted generation left %d files", len(ents))
	}
	var done []int
	rep, err := Generate(context.Background(), cfg, func(d ChunkDone) { done = append(done, d.Chunk) })
	if err != nil || rep.Chunks != 3 || len(done) != 3 || rep.Items == 0 {
		t.Fatalf("generation: %+v, progress %v, %v", rep, done, err)
	}
	first, _ := os.ReadFile(GamesName(dir, 1))
	if rep, err := Generate(context.Background(), cfg, nil); rep.Chunks != 0 || err != nil {
		t.Fatalf("existing chunks were played again: %+v, %v", rep, err)
	}
	other := t.TempDir()
	cfg.Dir, cfg.Concurrency, cfg.Chunks = other, 1, 2
	if _, err := Generate(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(GamesName(other, 1)); !bytes.Equal(first, again) {
		t.Fatal("the same chunk differs between two runs")
	}
	all, chunks, games, err := ReadGameDir(dir, 0)
	if err != nil || chunks != 3 || games != 9 || len(all) != rep.Items {
		t.Fatalf("ReadGameDir: %d samples of %d games in %d chunks, %v", len(all), games, chunks, err)
	}
	some, chunks, games, err := ReadGameDir(dir, 4)
	if err != nil || chunks != 2 || games != 4 || len(some) >= len(all) || !slices.Equal(some, all[:len(some)]) {
		t.Fatalf("the first 4 games: %d samples of %d games in %d chunks, %v", len(some), games, chunks, err)
	}
}

// zeroRMSE is the error of predicting 0 for every sample's final result.
func zeroRMSE(all []Sample) float64 {
	var se float64
	for _, x := range all {
		se += float64(x.Final) * float64(x.Final)
	}
	return math.Sqrt(se / float64(len(all)))
}

// TestFitLearns: the fit explains the data better than predicting 0, and
// its weights make a valid model.
func TestFitLearns(t *testing.T) {
	_, all := quickGames(t, 30, 2)
	zero := zeroRMSE(all)
	for _, l := range []*stdengine.Layout{stdengine.LayoutV3, stdengine.LayoutV4} {
		var last float64
		w, err := Fit(context.Background(), all, FitOptions{Epochs: 4, Rate: 0.003, ScoreWeight: 0.5, Mirror: true, Layout: l, Log: func(_ int, train, _ float64) { last = train }}, rand.New(rand.NewPCG(1, 1)))
		if err != nil || !(last < zero) {
			t.Fatalf("layout %s: fit rmse %.2f, zero model %.2f (%v)", l.Name(), last, zero, err)
		}
		if _, err := stdengine.NewModel(l, w, false); err != nil {
			t.Fatal(err)
		}
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
	_, all := quickGames(t, 5, 3)
	m := stdengine.Embedded()
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

// TestFitTied: a tied fit gives a configuration and its mirror image one
// weight, and a per-weight fit still learns.
func TestFitTied(t *testing.T) {
	_, all := quickGames(t, 20, 5)
	l := stdengine.LayoutV3
	w, err := Fit(context.Background(), all, FitOptions{Epochs: 2, Rate: 0.003, Tie: true, PerWeight: 50, Layout: l}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	mirror := l.MirrorIndex()
	differ := 0
	for s := range stdengine.NumStages {
		ws := w[s*l.StageLen():]
		for i, j := range mirror {
			if ws[i] != ws[j] {
				t.Fatalf("stage %d: index %d holds %d, its mirror %d holds %d", s, i, ws[i], j, ws[j])
			}
			if ws[i] != 0 {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Fatal("the tied fit learnt nothing")
	}
}

// TestMobilityTableNeverWorse: a cell's correction is the mean residual of
// its positions, so on the positions it was filled from (without
// shrinking) the model plus the table is never further from the labels
// than the model alone; with shrinking it is pulled towards zero.
func TestMobilityTableNeverWorse(t *testing.T) {
	_, all := quickGames(t, 10, 4)
	m := stdengine.Embedded()
	opt := FitOptions{ScoreWeight: 0.5}
	tab := FitMobilityTable(all, m, opt, 0)
	shrunk := FitMobilityTable(all, m, opt, 1e9)
	var before, after float64
	for i := range all {
		x := &all[i]
		y := float64(opt.label(x))
		v := m.Eval(x.P, x.O, false)
		c := tab.Correction(x.P, x.O, int(x.Empties))
		before += (v - y) * (v - y)
		after += (v + c - y) * (v + c - y)
		if s := shrunk.Correction(x.P, x.O, int(x.Empties)); math.Abs(s) > math.Abs(c)+1e-9 || math.Abs(s) > 1e-3 {
			t.Fatalf("shrunk correction %v, unshrunk %v", s, c)
		}
	}
	if after > before+1e-6 || !(after < before) {
		t.Fatalf("squared error %v with the table, %v without", after, before)
	}
	if c := tab.Correction(0, 0, 60); c != 0 {
		t.Fatalf("a cell without positions corrects by %v", c)
	}
}

// TestAnchorMix: every stage is a convex mix of two anchors of its own
// parity, an anchor's own stage is that anchor alone, and the parts move
// linearly between anchors.
func TestAnchorMix(t *testing.T) {
	for k := 2; k <= stdengine.NumStages/2; k++ {
		mix, at := anchorMix(k)
		if len(at) != 2*k {
			t.Fatalf("k=%d: %d sets", k, len(at))
		}
		for set, s := range at {
			if s&1 != set/k || (mix[s][0].set != set || mix[s][0].lam != 1) && (mix[s][1].set != set || mix[s][1].lam != 1) {
				t.Fatalf("k=%d: set %d sits on stage %d, whose mix is %v", k, set, s, mix[s])
			}
		}
		for s, m := range mix {
			a, b := m[0], m[1]
			if a.set/k != s&1 || b.set/k != s&1 || b.set != a.set+1 || a.lam < 0 || b.lam < 0 || math.Abs(float64(a.lam+b.lam)-1) > 1e-6 {
				t.Fatalf("k=%d stage %d: mix %v", k, s, m)
			}
			lo, hi := at[a.set], at[b.set]
			if s < lo || s > hi {
				t.Fatalf("k=%d stage %d: between anchors on stages %d and %d", k, s, lo, hi)
			}
			if want := float64(hi-s) / float64(hi-lo); math.Abs(float64(a.lam)-want) > 1e-6 {
				t.Fatalf("k=%d stage %d: the lower anchor's part %v, want %v (anchors on stages %d and %d)", k, s, a.lam, want, lo, hi)
			}
		}
	}
}

// TestFitAnchors: an anchored fit learns, writes a full model whose stages
// between two anchors are their interpolation, and rejects what it cannot
// combine with.
func TestFitAnchors(t *testing.T) {
	_, all := quickGames(t, 30, 2)
	zero := zeroRMSE(all)
	var last float64
	const k = 4
	l := stdengine.LayoutV3
	w, err := Fit(context.Background(), all, FitOptions{Epochs: 4, Rate: 0.003, ScoreWeight: 0.5, Mirror: true, Anchors: k, Layout: l, Log: func(_ int, train, _ float64) { last = train }}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || !(last < zero) {
		t.Fatalf("fit rmse %.2f, zero model %.2f (%v)", last, zero, err)
	}
	if _, err := stdengine.NewModel(l, w, false); err != nil {
		t.Fatal(err)
	}
	// A stage between two anchors lies between their stages' weights.
	mix, at := anchorMix(k)
	n := l.StageLen()
	moved := 0
	for s, m := range mix {
		lo, hi := w[at[m[0].set]*n:][:n], w[at[m[1].set]*n:][:n]
		for i, v := range w[s*n:][:n] {
			if v < min(lo[i], hi[i])-1 || v > max(lo[i], hi[i])+1 {
				t.Fatalf("stage %d weight %d: %d, anchors %d and %d", s, i, v, lo[i], hi[i])
			}
			if lo[i] != hi[i] {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Fatal("no weight differs between anchors")
	}
	for _, bad := range []FitOptions{{Anchors: 1}, {Anchors: stdengine.NumStages}, {Anchors: 3, Tie: true}, {Anchors: 3, PerWeight: 10}} {
		bad.Epochs, bad.Rate = 1, 0.003
		if _, err := Fit(context.Background(), all, bad, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Fatalf("%+v: fitted", bad)
		}
	}
}
