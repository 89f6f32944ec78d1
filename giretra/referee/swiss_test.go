package referee

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// swiss is giretra-ref swiss's defaults: target 1000 (here 151), a
// Colour sweep worth 25 × the multiplier, Elo 1200, K 40 → 4 with a
// half-life of 30 matches.
func swiss(t *testing.T, rounds int, seed int64, bots ...string) SwissConfig {
	c := SwissConfig{Setup: setup(t), Bots: bots, Rounds: rounds, Elo: 1200, KMax: 40, KMin: 4, KHalfLife: 30}
	c.Sweep, c.Seed, c.Seeded = 25, seed, true
	return c
}

// A Swiss tournament of the agents ranks them strongest first, tells its
// rounds as they are played, and the same seed gives the same tournament.
func TestSwissRanksAgents(t *testing.T) {
	var outs [2]string
	var rep *SwissReport
	for i := range outs {
		c := swiss(t, 24, 5, "random", "eva", "calculating")
		var news []SwissRound
		c.Round = func(r SwissRound) { news = append(news, r) }
		var err error
		if rep, err = Swiss(t.Context(), c); err != nil {
			t.Fatal(err)
		}
		if len(news) != 25 || strings.Join(news[0].Entrants, ",") != "random,eva,calculating" || news[24].Round != 24 || len(news[24].Matches) != 1 || news[24].Bye == "" {
			t.Errorf("%d rounds told, the first %+v, the last %+v", len(news), news[0], news[len(news)-1])
		}
		rep.Seconds = 0
		b, _ := json.Marshal(rep)
		outs[i] = string(b)
	}
	if outs[0] != outs[1] {
		t.Errorf("two runs with the same seed differ")
	}
	var order []string
	for _, p := range rep.Participants {
		order = append(order, p.Name)
	}
	if strings.Join(order, ",") != "eva,calculating,random" {
		t.Errorf("ranking %v", order)
	}
	if rep.Played != 24 || len(rep.Matches) != 24 {
		t.Errorf("%d rounds, %d matches", rep.Played, len(rep.Matches))
	}
	byes := 0
	for _, p := range rep.Participants {
		byes += p.Byes
		if p.MinElo > 1200 || p.MaxElo < 1200 || p.Elo < p.MinElo || p.Elo > p.MaxElo {
			t.Errorf("%s: Elo %v outside its range %v-%v", p.Name, p.Elo, p.MinElo, p.MaxElo)
		}
	}
	last := rep.Participants[2]
	if byes != 24 || last.Adjusted == nil || *last.Adjusted != 1000 {
		t.Errorf("byes %d, adjusted %v", byes, last.Adjusted)
	}
	for _, m := range rep.Matches {
		if m.Loser() == m.Winner || m.Loser() != m.Team1 && m.Loser() != m.Team2 {
			t.Errorf("match %+v: loser %s", m, m.Loser())
		}
	}
	// Fewer than two entrants: nothing to play.
	if _, err := Swiss(t.Context(), swiss(t, 2, 1, "eva")); !errors.Is(err, ErrTooFewEntrants) {
		t.Errorf("one entrant: %v", err)
	}
}

func TestSwissPairing(t *testing.T) {
	mk := func(name string, w, l, b int, elo float64) *Participant {
		return &Participant{Name: name, Wins: w, Losses: l, Byes: b, Elo: elo}
	}
	names := func(pairs [][2]*Participant, bye *Participant) string {
		var s []string
		for _, p := range pairs {
			s = append(s, p[0].Name+"-"+p[1].Name)
		}
		if bye != nil {
			s = append(s, "bye "+bye.Name)
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		ps   []*Participant
		want string
	}{
		// Round 1: list order; with three, the bye to the first listed.
		{[]*Participant{mk("A", 0, 0, 0, 1200), mk("B", 0, 0, 0, 1200), mk("C", 0, 0, 0, 1200), mk("D", 0, 0, 0, 1200)}, "A-B C-D"},
		{[]*Participant{mk("A", 0, 0, 0, 1200), mk("B", 0, 0, 0, 1200), mk("C", 0, 0, 0, 1200)}, "B-C bye A"},
		// Points, then Elo; no repeat avoidance.
		{[]*Participant{mk("A", 0, 1, 0, 1190), mk("B", 1, 0, 0, 1210), mk("C", 1, 0, 0, 1205), mk("D", 0, 1, 0, 1195)}, "B-C D-A"},
		// The bye: fewest byes, then fewest points, then lowest Elo.
		{[]*Participant{mk("A", 1, 0, 1, 1200), mk("B", 1, 1, 0, 1210), mk("C", 0, 1, 0, 1190)}, "A-B bye C"},
		{[]*Participant{mk("A", 2, 0, 0, 1200), mk("B", 1, 0, 1, 1210), mk("C", 1, 1, 0, 1190)}, "B-A bye C"},
	}
	for i, tt := range tests {
		if got := names(pairRound(tt.ps)); got != tt.want {
			t.Errorf("case %d: %s, want %s", i, got, tt.want)
		}
	}
}

func TestSwissK(t *testing.T) {
	// The values the research note computed from the engine's formula.
	for _, tt := range []struct {
		n    int
		want float64
	}{{0, 40}, {10, 31}, {20, 25.6}, {30, 22}, {60, 16}, {100, 12.31}, {200, 8.70}, {500, 6.04}, {1000, 5.05}} {
		if got := effectiveK(40, 4, tt.n, 30); math.Abs(got-tt.want) > 0.01 {
			t.Errorf("K(%d) = %.3f, want %.2f", tt.n, got, tt.want)
		}
	}
	for _, tt := range []struct {
		w, l int
		want float64
	}{{1000, 0, 1}, {1000, 500, 0.75}, {1000, 800, 0.6}, {1000, 950, 0.525}, {1300, 0, 1}} {
		if got := marginScore(tt.w, tt.l, 1000); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("margin(%d, %d) = %v, want %v", tt.w, tt.l, got, tt.want)
		}
	}
}
