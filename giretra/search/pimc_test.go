package search

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// position builds a knowledge of Bottom after trick k of a random deal
// played randomly (legal cards), Bottom to play, as a test fixture.
func position(rng *rand.Rand, tricks int, m giretra.Mode) (Knowledge, giretra.Set) {
	for {
		var d [32]giretra.Card
		for i := range d {
			d[i] = giretra.Card(i)
		}
		rng.Shuffle(32, func(i, j int) { d[i], d[j] = d[j], d[i] })
		var hands [4]giretra.Set
		for i, c := range d {
			hands[i/8] |= c.Bit()
		}
		hs := giretra.HandState{Mode: m, Current: giretra.NewTrick(giretra.Position(rng.IntN(4)))}
		for len(hs.Completed) < tricks || hs.Current.Next() != giretra.Bottom {
			p := hs.Current.Next()
			moves := giretra.LegalPlays(hands[p], &hs.Current, m).Cards()
			c := moves[rng.IntN(len(moves))]
			hands[p] &^= c.Bit()
			hs.Play(c)
			if hs.Over {
				break
			}
		}
		if hs.Over {
			continue
		}
		k := Infer(giretra.Bottom, hands[giretra.Bottom], &hs)
		return k, giretra.LegalPlays(hands[giretra.Bottom], &hs.Current, m)
	}
}

func BenchmarkChoose(b *testing.B) {
	for _, tricks := range []int{0, 1, 2, 3} {
		b.Run(string(rune('0'+tricks)), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(tricks)))
			var nodes, samples, atNodes, atSamples int64
			i := 0
			for b.Loop() {
				m := giretra.Mode(i % 6)
				// Every other contract of a mode is the other team's: the
				// searching seat declares or defends.
				announcer := giretra.Position(i / 6 % 2)
				i++
				k, valid := position(rng, tricks, m)
				u := ContractUtility(giretra.Contract{Mode: m, Announcer: announcer}, giretra.Team1, 30, 0.03)
				res, _ := Choose(context.Background(), &k, valid, u, rng, Params{Samples: 20, Nodes: 1 << 40}, giretra.NoCard)
				nodes += res.Nodes
				samples += int64(res.Samples)
				if m == giretra.AllTrumps {
					atNodes += res.Nodes
					atSamples += int64(res.Samples)
				}
			}
			b.ReportMetric(float64(nodes)/float64(samples), "nodes/sample")
			if atSamples > 0 {
				b.ReportMetric(float64(atNodes)/float64(atSamples), "alltrumps-nodes/sample")
			}
		})
	}
}

func TestContractUtility(t *testing.T) {
	c := giretra.Contract{Mode: giretra.ColourHearts, Announcer: giretra.Bottom}
	u := ContractUtility(c, giretra.Team1, 30, 0)
	for _, tc := range []struct {
		pts  int
		want float64
	}{{82, 16}, {81, 0}, {80, -16}, {0, -30}, {162, 30}} { // a sweep is worth its bonus only
		if got := u.U[tc.pts]; got != tc.want {
			t.Errorf("Colour, announcer with %d: %v, want %v", tc.pts, got, tc.want)
		}
	}
	// The defenders see the mirror image.
	u = ContractUtility(c, giretra.Team2, 30, 0)
	if u.U[81] != 0 || u.U[82] != 16 || u.U[80] != -16 {
		t.Errorf("defenders: %v %v %v", u.U[80], u.U[81], u.U[82])
	}
	// Match situation: a made contract that wins the match is worth more
	// than its points at the start of a match, and failing it less than
	// making it.
	u = ContractUtilityIn(c, giretra.Team1, 30, 0, MatchScore{Ours: 140, Theirs: 100, Target: 151})
	if u.U[82] <= 16 || u.U[80] >= 0 || -u.U[80] >= u.U[82] {
		t.Errorf("match-winning contract: %v / %v", u.U[82], u.U[80])
	}
	// AllTrumps x1 is graded.
	u = ContractUtility(giretra.Contract{Mode: giretra.AllTrumps, Announcer: giretra.Bottom}, giretra.Team1, 30, 0)
	if !(u.U[128] < u.U[129] && u.U[129] <= u.U[160] && u.U[160] < u.U[258]) {
		t.Errorf("AllTrumps utility not increasing: %v %v %v %v", u.U[128], u.U[129], u.U[160], u.U[258])
	}
	// Its window: every point the score grades lies inside it, and outside
	// it only the per-point bonus changes (the search gives bounds there).
	for _, team := range []giretra.Team{giretra.Team1, giretra.Team2} {
		u = ContractUtility(giretra.Contract{Mode: giretra.AllTrumps, Announcer: giretra.Bottom}, team, 30, 0.2)
		for v := 2; v < 258; v++ { // 0 and 258: sweeps, which Choose checks apart
			if v > u.Lo && v < u.Hi {
				continue
			}
			if d := u.U[v] - u.U[v-1]; math.Abs(d-0.2) > 1e-9 {
				t.Errorf("%v: the utility moves by %v from %d to %d points, outside the window (%d, %d)", team, d, v-1, v, u.Lo, u.Hi)
			}
		}
	}
}

// Choose gives up after the first sample when that sample's cost says
// MinSamples will not fit in the node limit, rather than spend the
// limit to find out; a limit that fits them lets it finish.
func TestChooseGivesUpEarly(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 12 {
		k, valid := position(rng, 1, giretra.AllTrumps)
		if valid.Count() < 2 {
			continue // answered without a search
		}
		u := ContractUtility(giretra.Contract{Mode: giretra.AllTrumps, Announcer: giretra.Bottom}, giretra.Team1, 30, 0.2)
		one, ok := Choose(context.Background(), &k, valid, u, rand.New(rand.NewPCG(1, uint64(i))), Params{Samples: 1, Nodes: 1 << 40}, giretra.NoCard)
		if !ok || one.Samples != 1 {
			t.Fatalf("position %d: one sample: ok %v, %d samples", i, ok, one.Samples)
		}
		prm := Params{Samples: 8, MinSamples: 4, Nodes: 3 * one.Nodes}
		res, ok := Choose(context.Background(), &k, valid, u, rand.New(rand.NewPCG(1, uint64(i))), prm, giretra.NoCard)
		if ok || res.Samples != 1 || res.Nodes != one.Nodes {
			t.Fatalf("position %d: a limit of 3 samples' nodes, 4 wanted: ok %v, %d samples, %d nodes (one: %d)", i, ok, res.Samples, res.Nodes, one.Nodes)
		}
		prm.Nodes = 1 << 40
		if res, ok = Choose(context.Background(), &k, valid, u, rand.New(rand.NewPCG(1, uint64(i))), prm, giretra.NoCard); !ok || res.Samples != 8 {
			t.Fatalf("position %d: no limit: ok %v, %d samples", i, ok, res.Samples)
		}
	}
}

// TestChooseFindsTheWinningLine: NoTrumps, two tricks left, Bottom on lead
// with AS and 7H, its team 40 points short of nothing. Cashing the AS
// first takes 18 points; ducking the 7H first lets Right's AH win and lead
// into the AS, which then takes the last trick and its 10-point bonus:
// 28 points, enough to make the contract (68 >= 66) where 58 is not.
func TestChooseFindsTheWinningLine(t *testing.T) {
	hands := [4]giretra.Set{P("AS 7H"), P("KS 8H"), P("7C 8C"), P("QS AH")}
	played := giretra.FullDeck &^ (hands[0] | hands[1] | hands[2] | hands[3])
	hs := giretra.HandState{Mode: giretra.NoTrumps, Current: giretra.NewTrick(giretra.Bottom), CardPoints: [2]int{40, 51}, TricksWon: [2]int{3, 3}}
	cards := played.Cards()
	for i := range 6 {
		tr := giretra.NewTrick(giretra.Bottom)
		for j := range 4 {
			tr.Add(cards[i*4+j])
		}
		hs.Completed = append(hs.Completed, tr)
	}
	k := Infer(giretra.Bottom, hands[0], &hs)
	u := ContractUtility(giretra.Contract{Mode: giretra.NoTrumps, Announcer: giretra.Bottom}, giretra.Team1, 30, 0.03)
	rng := rand.New(rand.NewPCG(1, 1))
	res, ok := Choose(context.Background(), &k, hands[0], u, rng, Params{Samples: 20, Nodes: 1 << 30}, giretra.NoCard)
	if !ok {
		t.Fatal("no result")
	}
	if res.Card != P("7H").First() {
		t.Errorf("led %v, want 7H (values AS %v, 7H %v)", res.Card, res.Value[P("AS").First()], res.Value[P("7H").First()])
	}
}

var P = giretra.MustParseCards

// A search under WithBusy asks, every 1024 nodes, whether to yield, and
// yielding changes nothing in its answer: the same card, the same values,
// the same nodes, busy or not. Without WithBusy nothing is asked.
func TestChooseAsksBusy(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 6 {
		m := giretra.Mode(i)
		k, valid := position(rng, 1, m)
		u := ContractUtility(giretra.Contract{Mode: m, Announcer: giretra.Bottom}, giretra.Team1, 30, 0.03)
		prm := Params{Samples: 6, Nodes: 1 << 40}
		seed := rng.Uint64()
		asked := 0
		for _, busy := range []bool{false, true} {
			ctx := WithBusy(context.Background(), func() bool { asked++; return busy })
			got, ok := Choose(ctx, &k, valid, u, rand.New(rand.NewPCG(seed, 1)), prm, giretra.NoCard)
			want, okW := Choose(context.Background(), &k, valid, u, rand.New(rand.NewPCG(seed, 1)), prm, giretra.NoCard)
			if ok != okW || got != want {
				t.Fatalf("mode %v, busy %v: %+v, without WithBusy %+v", m, busy, got, want)
			}
			if want.Nodes >= 2048 && asked == 0 {
				t.Fatalf("mode %v: %d nodes and busy never asked", m, want.Nodes)
			}
		}
	}
}

// Yield and Busy ask the context's busy function, now, and say not busy
// without one.
func TestYield(t *testing.T) {
	Yield(context.Background()) // no busy function: must not panic
	if Busy(context.Background()) {
		t.Error("busy without a busy function")
	}
	asked, busy := 0, true
	ctx := WithBusy(context.Background(), func() bool { asked++; return busy })
	Yield(ctx)
	if !Busy(ctx) || asked != 2 {
		t.Errorf("busy function asked %d times, want 2", asked)
	}
	busy = false
	if Busy(ctx) {
		t.Error("busy function says no, Busy says yes")
	}
}
