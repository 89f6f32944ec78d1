package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
)

// When every seat solves, the playout is perfect play: the points each
// team takes from the position on are the solver's value of it. With only
// one team solving, that team takes at least as much (the other team
// plays worse than perfectly, and the solving team answers each card).
func TestEndgamePlaysPerfectly(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 5))
	s := search.NewSolver()
	team1Only := uint8(1<<giretra.Bottom | 1<<giretra.Top)
	for i := range 120 {
		d := giretra.Shuffle(rng)
		var hands [4]giretra.Set
		for j, c := range d {
			hands[j/8] |= c.Bit()
		}
		c := giretra.Contract{Mode: giretra.Mode(i % 6), Announcer: giretra.Position(i % 4)}
		hs := giretra.HandState{Mode: c.Mode, Current: giretra.NewTrick(giretra.Position(i % 4))}
		// The first tricks by the heuristic, up to a point inside a trick.
		for range 12 + i%4 {
			p := hs.Current.Next()
			valid := giretra.LegalPlays(hands[p], &hs.Current, hs.Mode)
			v := giretra.PlayView{Seat: p, Hand: hands[p], State: &hs, Valid: valid}
			card := heuristicCard(&v, c, nil)
			hands[p] &^= card.Bit()
			hs.Play(card)
		}
		s.Reset(c.Mode, giretra.Team1)
		want := s.Solve(&hands, hs.Current)
		for _, seats := range []uint8{0xf, team1Only} {
			h, st := hands, hs
			st.Completed = append([]giretra.Trick(nil), hs.Completed...)
			eg := &endgame{seats: seats, from: 8, s: search.NewSolver()}
			if !finishDeal(&h, &st, c, nil, nil, eg, nil) {
				t.Fatalf("deal %d: no legal card", i)
			}
			got := st.CardPoints[giretra.Team1] - hs.CardPoints[giretra.Team1]
			if seats == 0xf && got != want || seats == team1Only && got < want {
				t.Fatalf("deal %d (%v), seats %04b: Team1 took %d points from the position, perfect play %d", i, c.Mode, seats, got, want)
			}
		}
	}
}
