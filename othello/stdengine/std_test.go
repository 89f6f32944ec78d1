package stdengine

import (
	"bytes"
	"compress/gzip"
	"context"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/botarena/gamebot/othello/bitboard"
)

// randomGame plays random moves from the start and returns the positions
// (mover, opponent, white to move) it went through.
func randomGame(rng *rand.Rand) (ps, os []uint64, whites []bool) {
	p, o, white := uint64(startP), uint64(startO), false
	for {
		m := bitboard.Moves(p, o)
		if m == 0 {
			if bitboard.Moves(o, p) == 0 {
				return
			}
			p, o, white = o, p, !white
			continue
		}
		ps, os, whites = append(ps, p), append(os, o), append(whites, white)
		n := rng.IntN(bits.OnesCount64(m))
		for range n {
			m &= m - 1
		}
		sq := trailing(m)
		f := bitboard.Flips(sq, p, o)
		p, o, white = o&^f, p|f|1<<uint(sq), !white
	}
}

func TestFeaturesIncremental(t *testing.T) {
	for _, l := range Layouts {
		testFeaturesIncremental(t, l)
	}
}

func testFeaturesIncremental(t *testing.T, l *Layout) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		p, o, white := uint64(startP), uint64(startO), false
		f := l.featuresOf(p, o)
		for {
			m := bitboard.Moves(p, o)
			if m == 0 {
				if bitboard.Moves(o, p) == 0 {
					break
				}
				p, o, white = o, p, !white
				continue
			}
			n := rng.IntN(bits.OnesCount64(m))
			for range n {
				m &= m - 1
			}
			sq := trailing(m)
			fl := bitboard.Flips(sq, p, o)
			l.update(&f, sq, fl, white)
			p, o, white = o&^fl, p|fl|1<<uint(sq), !white
			b, w := p, o
			if white {
				b, w = o, p
			}
			if want := l.featuresOf(b, w); f != want {
				t.Fatalf("layout %s: incremental features differ:\n%v\n%v", l.name, f, want)
			}
		}
	}
}

// minimax is the plain reference solver: final score for the mover (in
// the misère game, the opponent's discs minus the mover's).
func minimax(p, o uint64, misere bool) int {
	m := bitboard.Moves(p, o)
	if m == 0 {
		if bitboard.Moves(o, p) == 0 {
			d := bits.OnesCount64(p) - bits.OnesCount64(o)
			if misere {
				d = -d
			}
			return d
		}
		return -minimax(o, p, misere)
	}
	best := -65
	for ; m != 0; m &= m - 1 {
		sq := trailing(m)
		f := bitboard.Flips(sq, p, o)
		best = max(best, -minimax(o&^f, p|f|1<<uint(sq), misere))
	}
	return best
}

// positionAt returns a random game's position with the given empties.
func positionAt(rng *rand.Rand, empties int) (p, o uint64, white bool) {
	for {
		ps, os, ws := randomGame(rng)
		for i := range ps {
			if 64-bits.OnesCount64(ps[i]|os[i]) == empties {
				return ps[i], os[i], ws[i]
			}
		}
	}
}

// testModel is the embedded std model, or the model file OTHELLO_MODEL
// names: benchmarks then measure another model's speed.
func testModel(tb testing.TB) *Model {
	name := os.Getenv("OTHELLO_MODEL")
	if name == "" {
		return Embedded()
	}
	m, err := ReadModel(name)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestEmbedded decodes the embedded evaluations: Embedded panics on a
// build whose model does not decode, and this is the test that says so
// before a binary does.
func TestEmbedded(t *testing.T) {
	m, err := DecodeModel(embedded)
	if err != nil {
		t.Fatalf("the embedded model: %v", err)
	}
	if m.Misere {
		t.Fatal("the embedded model is an anti model")
	}
	if Embedded() == nil {
		t.Fatal("no embedded model")
	}
	a, err := DecodeModel(embeddedAntiBytes)
	if err != nil || !a.Misere || EmbeddedAnti() == nil {
		t.Fatalf("the embedded anti model: %v (anti %v)", err, a != nil && a.Misere)
	}
}

// TestLayouts: the sizes a model file of each layout must have, and
// every instance of a kind reading its squares as an image of the
// kind's first instance.
func TestLayouts(t *testing.T) {
	for _, c := range []struct {
		l              *Layout
		inst, stageLen int
		maxSquareInsts int
	}{
		// 3⁹ + 2·3¹⁰ + 4·3⁸ + 3⁷ + 3⁶ + 3⁵ + 3⁴, and the scalars.
		{LayoutV3, 48, 167265 + NumScalars, 9},
		{LayoutV4, 60, 3*pow3(9)/3 + 9*pow3(10) + pow3(8) + pow3(7) + pow3(6) + pow3(5) + 65 + NumScalars, 16},
	} {
		if len(c.l.inst) != c.inst || c.l.StageLen() != c.stageLen {
			t.Errorf("layout %s: %d instances, %d weights a stage; want %d, %d", c.l.name, len(c.l.inst), c.l.StageLen(), c.inst, c.stageLen)
		}
		for _, k := range c.l.kinds {
			first := c.l.inst[k.first]
			for i := k.first; i < len(c.l.inst) && len(c.l.inst[i]) == k.squares && c.l.at[i] == uint32(k.offset); i++ {
				if !isImage(first, c.l.inst[i]) {
					t.Errorf("layout %s: instance %v is no image of %v", c.l.name, c.l.inst[i], first)
				}
			}
		}
	}
}

// isImage reports whether b lists the images of a's squares, in order,
// under one symmetry of the board.
func isImage(a, b []int8) bool {
	for tr := range 8 {
		ok := true
		for i, sq := range a {
			ok = ok && b[i] == symmetry(sq, tr)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestEndgameMatchesMinimax(t *testing.T) {
	zeros, err := NewModel(LayoutV4, make([]int16, NumStages*LayoutV4.StageLen()), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []*Model{testModel(t), zeros} {
		testEndgameMatchesMinimax(t, model)
	}
}

func testEndgameMatchesMinimax(t *testing.T, model *Model) {
	rng := rand.New(rand.NewPCG(9, 10))
	s := NewSearcher(model, 14)
	for i := range 120 {
		empties := 1 + i%11
		p, o, white := positionAt(rng, empties)
		want := minimax(p, o, model.Misere)
		b, w := p, o
		if white {
			b, w = o, p
		}
		for _, win := range [][2]int{{-64, 64}, {want - 1, want + 1}, {want, want + 1}, {want - 1, want}, {want - 5, want - 3}, {want + 2, want + 6}} {
			s.Clear()
			s.sel = SelExact
			s.feat[0] = s.model.lay.featuresOf(b, w)
			got := s.endgame(p, o, 0, white, win[0], win[1], empties)
			switch {
			case want <= win[0] && (got > win[0] || got < want),
				want >= win[1] && (got < win[1] || got > want),
				want > win[0] && want < win[1] && got != want:
				t.Fatalf("misère %v #%d (%d empties) window %v: endgame %d, minimax %d", model.Misere, i, empties, win, got, want)
			}
		}
	}
}

// TestSolveAfterFailedWindow: the root's solve starts in a window around
// the midgame iterations' score; with an evaluation of all zeros that
// score is 0, so a solve of a position won or lost by more fails high or
// low, perhaps more than once, and must still end on the exact score.
func TestSolveAfterFailedWindow(t *testing.T) {
	zeros, err := NewModel(LayoutV4, make([]int16, NumStages*LayoutV4.StageLen()), false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	s := NewSearcher(zeros, 14)
	far := 0
	for i := range 60 {
		p, o, white := positionAt(rng, 6+i%5)
		want := minimax(p, o, false)
		if want <= -4 || want >= 4 {
			far++
		}
		var moves []int
		for m := bitboard.Moves(p, o); m != 0; m &= m - 1 {
			moves = append(moves, trailing(m))
		}
		if len(moves) == 0 {
			continue
		}
		s.Clear()
		res := s.Search(context.Background(), p, o, white, moves, Limits{MaxDepth: 64})
		if !res.Exact || res.Score != want {
			t.Fatalf("#%d: score %d (exact %v), minimax %d", i, res.Score, res.Exact, want)
		}
	}
	if far < 20 {
		t.Fatalf("only %d of 60 positions fail the first window", far)
	}
}

// negamax is a full-width fixed-depth search with the searcher's leaf
// evaluation: the reference for the midgame search without ProbCut.
func negamax(s *Searcher, p, o uint64, white bool, depth int) int {
	b, w := p, o
	if white {
		b, w = o, p
	}
	s.feat[0] = s.model.lay.featuresOf(b, w)
	m := bitboard.Moves(p, o)
	if m == 0 {
		if bitboard.Moves(o, p) == 0 {
			return s.final(p, o)
		}
		return -negamax(s, o, p, !white, depth)
	}
	if depth == 0 {
		return s.evalAt(0, p, o, white, m)
	}
	best := -65
	for ; m != 0; m &= m - 1 {
		sq := trailing(m)
		f := bitboard.Flips(sq, p, o)
		best = max(best, -negamax(s, o&^f, p|f|1<<uint(sq), !white, depth-1))
	}
	return best
}

func TestSearchMatchesNegamax(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	s := NewSearcher(testModel(t), 14)
	n := 16
	if testing.Short() {
		n = 6
	}
	for i := range n {
		p, o, white := positionAt(rng, 20+i*13%36)
		for depth := 1; depth <= 4; depth++ {
			want := negamax(s, p, o, white, depth)
			b, w := p, o
			if white {
				b, w = o, p
			}
			for _, win := range [][2]int{{-64, 64}, {want, want + 1}, {want - 1, want}, {want - 3, want + 3}} {
				s.Clear()
				s.sel = SelExact
				s.feat[0] = s.model.lay.featuresOf(b, w)
				got := s.search(p, o, 0, white, win[0], win[1], depth)
				switch {
				case want <= win[0] && (got > win[0] || got < want),
					want >= win[1] && (got < win[1] || got > want),
					want > win[0] && want < win[1] && got != want:
					t.Fatalf("#%d depth %d window %v: search %d, negamax %d", i, depth, win, got, want)
				}
			}
		}
	}
}

// midgameSet is a fixed set of self-play positions (seed 2026) at 28–48
// empties for the speed and node-count benchmarks, played by the embedded
// model whichever model the benchmark measures.
func midgameSet(testing.TB) []Position {
	return SelfPlayPositions(rand.New(rand.NewPCG(2026, 1)), Embedded(), 24, 28, 48)
}

// BenchmarkMidgame searches the midgame set to a fixed depth
// (OTHELLO_DEPTH, default 12) at selectivity OTHELLO_SEL (default 1; 5:
// no ProbCut), each position from a cold table, and reports nodes per
// op: the measure of ordering and cutoff changes (fewer nodes for the
// same depth) next to ns/op (faster nodes). OTHELLO_WITHOUT switches
// parts off as the engine's -without does, to measure each alone.
func BenchmarkMidgame(b *testing.B) {
	depth, sel := envInt("OTHELLO_DEPTH", 12), envInt("OTHELLO_SEL", 1)
	set := midgameSet(b)
	s := NewSearcher(testModel(b), 20)
	without, err := ParseWithout(os.Getenv("OTHELLO_WITHOUT"))
	if err != nil {
		b.Fatal(err)
	}
	s.SetWithout(without)
	var nodes uint64
	for b.Loop() {
		for _, pos := range set {
			s.Clear()
			r := s.Search(context.Background(), pos.P, pos.O, pos.White, movesList(pos.P, pos.O), Limits{MaxDepth: depth, MidgameSel: sel})
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// BenchmarkEndgame solves a fixed set of 8 self-play positions (seed 2026)
// at OTHELLO_EMPTIES empties (default 20) exactly, each from a cold
// table; one op is the whole set.
func BenchmarkEndgame(b *testing.B) {
	e := envInt("OTHELLO_EMPTIES", 20)
	set := SelfPlayPositions(rand.New(rand.NewPCG(2026, uint64(e))), testModel(b), 8, e, e)
	s := NewSearcher(testModel(b), 20)
	var nodes uint64
	for b.Loop() {
		for _, pos := range set {
			s.Clear()
			r := s.Search(context.Background(), pos.P, pos.O, pos.White, movesList(pos.P, pos.O), Limits{MaxDepth: 64})
			if !r.Exact {
				b.Fatalf("not solved: %+v", r)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func TestParseWithout(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Without
		bad  bool
	}{
		{in: "", want: Without{}},
		{in: "etc, stability", want: Without{ETC: true, Stability: true}},
		{in: "sort-search,incremental", want: Without{SortSearch: true, Incremental: true}},
		{in: "etc,probcut", bad: true},
	} {
		got, err := ParseWithout(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParseWithout(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// FuzzDecodeModel: any bytes give a model or an error, never a panic; a
// decoded model evaluates the start position.
func FuzzDecodeModel(f *testing.F) {
	var small bytes.Buffer
	zw := gzip.NewWriter(&small)
	zw.Write(append([]byte(LayoutV4.magic), 1))
	zw.Close()
	f.Add(small.Bytes())
	f.Add(embedded[:64])
	f.Add([]byte("OTPAT8v3"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeModel(b)
		if err != nil {
			return
		}
		_ = m.Eval(1<<27|1<<36, 1<<28|1<<35, false)
	})
}

// TestSetErrors: a searcher told a far smaller error model cuts more, so
// it searches fewer nodes to the same depth at the same selectivity, and a
// malformed model is refused.
func TestSetErrors(t *testing.T) {
	set := midgameSet(t)[:4]
	nodes := func(s *Searcher) (n uint64) {
		for _, pos := range set {
			s.Clear()
			n += s.Search(context.Background(), pos.P, pos.O, pos.White, movesList(pos.P, pos.O), Limits{MaxDepth: 7, MidgameSel: 1}).Nodes
		}
		return n
	}
	def := nodes(NewSearcher(testModel(t), 16))
	tight := NewSearcher(testModel(t), 16)
	m, err := ParseErrorModel("-5,0,0,-5,0")
	if err != nil {
		t.Fatal(err)
	}
	tight.SetErrors(m)
	if n := nodes(tight); n >= def {
		t.Fatalf("σ near 0: %d nodes, the embedded error model %d", n, def)
	}
	for _, bad := range []string{"", "1,2,3,4", "1,2,3,4,5,6", "1,2,x,4,5", "1,2,3,4,Inf", "1,2,3,4,99"} {
		if _, err := ParseErrorModel(bad); err == nil {
			t.Errorf("ParseErrorModel(%q) accepted", bad)
		}
	}
}

// TestPlanOf: the root's iterations for each kind of limits.
func TestPlanOf(t *testing.T) {
	mid := func(to, sel int) (p []iter) {
		for d := 1; d <= to; d++ {
			p = append(p, iter{d, sel})
		}
		return p
	}
	solves := func(e int, sels ...int) (p []iter) {
		for _, s := range sels {
			p = append(p, iter{e, s})
		}
		return p
	}
	play := Limits{MidgameSel: 1, ExactEmpties: 20, ProbableEmpties: 26, SolveAfter: 10}
	for _, tc := range []struct {
		name    string
		lim     Limits
		empties int
		want    []iter
	}{
		{"fixed depth short of the end", Limits{MaxDepth: 8, MidgameSel: 1}, 30, mid(8, 1)},
		{"fixed depth to the end: midgame, then the exact solve", Limits{MaxDepth: 64, MidgameSel: 1}, 12, append(mid(12-solveShort, 1), solves(12, SelExact)...)},
		{"fixed depth to the end, few empties: the solve alone", Limits{MaxDepth: 64, MidgameSel: 1}, solveShort, solves(solveShort, SelExact)},
		{"fixed depth one short of the end", Limits{MaxDepth: 11, MidgameSel: 1}, 12, mid(11, 1)},
		{"clock, too many empties to solve: the clock stops it first", play, 40, append(mid(40-solveShort, 1), solves(40, SelExact)...)},
		{"clock, probable solves only", play, 24, append(mid(10, 1), solves(24, 1, 2, 3, 4)...)},
		{"clock, an exact solve", play, 18, append(mid(18-solveShort, 1), solves(18, SelExact)...)},
		{"clock, the exact limit itself", play, 20, append(mid(20-solveShort, 1), solves(20, SelExact)...)},
	} {
		if got := planOf(nil, tc.lim, tc.empties); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
