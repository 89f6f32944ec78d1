package agents

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// checked wraps a player and fails the test on any answer outside the
// offered options, independently of RunMatch's own checks.
type checked struct {
	giretra.Player
	t *testing.T
}

func (c checked) ChooseCut(ctx context.Context, s giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	cut, err := c.Player.ChooseCut(ctx, s, m)
	if err == nil && !cut.Valid() {
		c.t.Errorf("%v: cut %+v out of range", s, cut)
	}
	return cut, err
}

func (c checked) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := c.Player.ChooseAction(ctx, v)
	if err != nil {
		return a, err
	}
	for _, x := range v.Valid {
		if x == a {
			return a, nil
		}
	}
	c.t.Errorf("%v: action %v not among %v", v.Seat, a, v.Valid)
	return a, err
}

func (c checked) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	card, err := c.Player.ChooseCard(ctx, v)
	if err == nil && (card > 31 || !v.Valid.Has(card)) {
		c.t.Errorf("%v: card %v not among %v", v.Seat, card, v.Valid)
	}
	return card, err
}

// play runs one match: a at Bottom+Top, b at Left+Right.
func play(t *testing.T, a, b string, seed uint64, cfg giretra.MatchConfig) giretra.MatchResult {
	t.Helper()
	var ps [4]giretra.Player
	for s := range giretra.Position(4) {
		name := a
		if s.Team() == giretra.Team2 {
			name = b
		}
		p, err := New(name, rand.New(rand.NewPCG(seed, uint64(s))))
		if err != nil {
			t.Fatal(err)
		}
		ps[s] = checked{p, t}
	}
	res, err := giretra.RunMatch(context.Background(), ps, cfg, rand.New(rand.NewPCG(seed, 99)), nil)
	if err != nil {
		t.Fatalf("%s vs %s seed %d: %v", a, b, seed, err)
	}
	return res
}

func TestNew(t *testing.T) {
	for _, n := range append(Names(), "EVA", "Kialasoa") {
		if _, err := New(n, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Errorf("New(%q): %v", n, err)
		}
	}
	if _, err := New("nobody", nil); err == nil {
		t.Error("New(nobody) succeeded")
	}
}

// TestLegalOverManyMatches is the legality property: every answer of every
// agent, in every pairing, is among the offered options, over many matches
// with both targets and sweep rules.
func TestLegalOverManyMatches(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	names := Names()
	for _, a := range names {
		for _, b := range names {
			t.Run(a+"-"+b, func(t *testing.T) {
				t.Parallel()
				for i := range n {
					cfg := giretra.MatchConfig{TargetScore: 151, FirstDealer: giretra.Position(i % 4)}
					if i%2 == 1 {
						cfg.TargetScore, cfg.ColourSweepPoints = 500, 25
					}
					res := play(t, a, b, uint64(1000+i), cfg)
					if !res.Final.Complete || res.Winner == giretra.NoTeam {
						t.Fatalf("match %d not complete: %+v", i, res.Final)
					}
				}
			})
		}
	}
}

func TestDeterministic(t *testing.T) {
	cfg := giretra.MatchConfig{TargetScore: 151}
	for _, a := range Names() {
		r1 := play(t, a, "calculating", 7, cfg)
		r2 := play(t, a, "calculating", 7, cfg)
		if fmt.Sprint(r1.Final) != fmt.Sprint(r2.Final) {
			t.Errorf("%s: same seed, different matches", a)
		}
	}
}

// TestOrderOfStrength is a coarse, fast check that eva beats random,
// calculating beats random and random beats bad most of the time; the real calibration is the
// referee's benchmark command (see the package's report).
func TestOrderOfStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	n := 40
	if s := os.Getenv("AGENTS_CALIBRATE"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	cfg := giretra.MatchConfig{TargetScore: 151}
	if os.Getenv("AGENTS_TARGET") == "500" {
		cfg = giretra.MatchConfig{TargetScore: 500, ColourSweepPoints: 25}
	}
	for _, pair := range [][2]string{{"eva", "random"}, {"calculating", "random"}, {"eva", "calculating"}, {"random", "bad"}} {
		wins := 0
		for i := range n {
			a, b := pair[0], pair[1]
			cfg.FirstDealer = giretra.Position(i % 4)
			res := play(t, a, b, uint64(5000+i), cfg)
			if res.Winner == giretra.Team1 {
				wins++
			}
		}
		t.Logf("%s vs %s: %d/%d", pair[0], pair[1], wins, n)
		if wins*2 <= n {
			t.Errorf("%s won only %d/%d against %s", pair[0], wins, n, pair[1])
		}
	}
}

func TestRandomCutRange(t *testing.T) {
	r := NewRandom(rand.New(rand.NewPCG(3, 4)))
	seen := map[int]bool{}
	for range 2000 {
		c, _ := r.ChooseCut(context.Background(), giretra.Bottom, nil)
		if !c.Valid() {
			t.Fatalf("cut %+v", c)
		}
		seen[c.Position] = true
	}
	if len(seen) != 21 {
		t.Errorf("cut positions seen: %d, want 21", len(seen))
	}
}

// FuzzMatchLegal plays a whole match between two agents chosen by the
// fuzzer, with fuzzed seeds, target and sweep rule: every answer must be
// among the offered options and the match must finish.
func FuzzMatchLegal(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(2), uint16(151), false)
	f.Add(uint64(42), uint8(2), uint8(1), uint16(500), true)
	f.Fuzz(func(t *testing.T, seed uint64, ia, ib uint8, target uint16, sweep bool) {
		names := Names()
		cfg := giretra.MatchConfig{TargetScore: int(target%600) + 1, FirstDealer: giretra.Position(seed % 4)}
		if sweep {
			cfg.ColourSweepPoints = 25
		}
		res := play(t, names[int(ia)%len(names)], names[int(ib)%len(names)], seed, cfg)
		if !res.Final.Complete {
			t.Fatalf("match not complete")
		}
	})
}
