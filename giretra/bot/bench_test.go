package bot

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
)

// BenchmarkPlayOut is one heuristic playout of a whole deal (the unit of
// the bidding simulation and of the early-trick rollouts).
func BenchmarkPlayOut(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	k := search.Knowledge{Seat: giretra.Bottom, Mode: giretra.AllTrumps}
	k.Count = [4]int{8, 8, 8, 8}
	var hands [4]giretra.Set
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		k.Sample(rng, &hands)
		c := giretra.Contract{Mode: giretra.Mode(i % 6), Announcer: giretra.Position(i % 4)}
		i++
		playOut(hands, c, giretra.Right, nil, giretra.Team1, search.MatchScore{}, nil, nil, nil)
	}
}

// BenchmarkGenBidDeal is one deal of the learned evaluator's data: its
// negotiation, and every offered action of every decision finished and
// played out (the agents playing their cards, as gen -card-models does;
// solve=5: our seats solving from five cards, as -solve-from 5 does).
func BenchmarkGenBidDeal(b *testing.B) {
	for _, from := range []int{0, 5} {
		b.Run(fmt.Sprintf("solve=%d", from), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			opt := BidGenOptions{Explore: 0.1, Long: 0.3, CardModels: true, SolveFrom: from}
			n := 0
			for b.Loop() {
				n += len(GenBidDeal(rng, opt))
			}
			b.ReportMetric(float64(n)/float64(b.N), "decisions/op")
		})
	}
}
