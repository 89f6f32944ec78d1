package match

import (
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
)

// recorded plays n std matches between a and b in process and reads
// their records back, paired.
func recorded(t *testing.T, n int, a, b string) [][2]record.Leg {
	t.Helper()
	pa, err := players.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := players.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := CampaignConfig{Modes: []othello.Mode{othello.Std}, N: n, Concurrency: 2, Seed: 11, Players: [2]players.Player{pa, pb},
		Clock: time.Hour, MaxThink: time.Minute, Record: dir}
	if _, err := Campaign(t.Context(), cfg, func(Event) {}); err != nil {
		t.Fatal(err)
	}
	legs, err := record.ReadPaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := PairLegs(legs)
	if err != nil || len(m) != n {
		t.Fatalf("%d matches, %v", len(m), err)
	}
	return m
}

// TestLossesPerfectEndgames: players that solve exactly from 12 empties
// play perfectly from there, so from 12 empties down nothing is lost and
// the match points are the solved ones; from 20, where they still search
// one ply, the points and discs add up either way round: read with A and
// B swapped, every figure is the other side's.
func TestLossesPerfectEndgames(t *testing.T) {
	matches := recorded(t, 4, "engine:depth=1,solve-at=12,tt-bits=12", "engine:depth=1,solve-at=12,tt-bits=12")
	res, err := Losses(t.Context(), matches, []int{12, 8, 20}, 2, 14)
	if err != nil || len(res) != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, st := range res[:2] {
		if st.Matches != 4 || st.DiscsA != 0 || st.WorseA != 0 || st.BetterA != 0 || st.SolvedA != st.PlayedA {
			t.Errorf("perfect from %d empties: %+v", st.Empties, st)
		}
	}
	swapped := make([][2]record.Leg, len(matches))
	for i, m := range matches {
		swapped[i] = [2]record.Leg{m[1], m[0]}
	}
	back, err := Losses(t.Context(), swapped, []int{20}, 1, 14)
	if err != nil {
		t.Fatal(err)
	}
	st, bs := res[2], back[0]
	if bs.DiscsA != -st.DiscsA || bs.WorseA != st.BetterA || bs.BetterA != st.WorseA ||
		bs.PlayedA != 4-st.PlayedA || bs.SolvedA != 4-st.SolvedA {
		t.Errorf("from 20 empties: %+v; read the other way round %+v", st, bs)
	}
}

// TestPairLegs: a missing leg, a leg twice and legs whose players are
// not swapped are refused.
func TestPairLegs(t *testing.T) {
	a, b := record.Player{Name: "a", Kind: "engine"}, record.Player{Name: "b", Kind: "engine"}
	leg := func(match string, no int, black, white record.Player) record.Leg {
		return record.Leg{Match: match, LegNo: no, Players: [2]record.Player{black, white}}
	}
	if m, err := PairLegs([]record.Leg{leg("1", 1, b, a), leg("1", 0, a, b), leg("2", 0, b, a), leg("2", 1, a, b)}); err != nil ||
		len(m) != 2 || m[0][0].LegNo != 0 || m[1][0].Players[0] != b {
		t.Fatalf("%+v %v", m, err)
	}
	for name, legs := range map[string][]record.Leg{
		"missing":     {leg("1", 0, a, b)},
		"twice":       {leg("1", 0, a, b), leg("1", 0, a, b), leg("1", 1, b, a)},
		"not swapped": {leg("1", 0, a, b), leg("1", 1, a, b)},
		"leg 2":       {leg("1", 2, a, b)},
	} {
		if _, err := PairLegs(legs); err == nil {
			t.Errorf("%s: paired", name)
		}
	}
}
