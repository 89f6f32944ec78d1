package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bidmodel"
	"github.com/botarena/gamebot/giretra/search"
)

// The mixtures learned over a match single out the policy each seat
// really follows: a random player is recognised as random, Calculating
// as Calculating, and Eva is never taken for random.
func TestModelsLearnWhoPlaysHow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	b := New(Config{Fast: true})
	players := [4]giretra.Player{
		giretra.Bottom: b,
		giretra.Left:   agents.NewEva(),
		giretra.Top:    &randomPlayer{rng},
		giretra.Right:  agents.NewCalculating(rng),
	}
	cfg := giretra.MatchConfig{TargetScore: 1000, ColourSweepPoints: 25}
	if _, err := giretra.RunMatch(context.Background(), players, cfg, rng, nil); err != nil {
		t.Fatal(err)
	}
	if b.bh.deals[giretra.Left] < 5 {
		t.Fatalf("only %d deals learned", b.bh.deals[giretra.Left])
	}
	eva, top, calc := b.bh.mixture(giretra.Left), b.bh.mixture(giretra.Top), b.bh.mixture(giretra.Right)
	t.Logf("eva seat %.3f, random seat %.3f, calculating seat %.3f (eva, calc, own, random)", eva, top, calc)
	if eva[modelRandom] > 0.05 {
		t.Errorf("Eva's seat looks random: %.3f", eva)
	}
	if top[modelRandom] < 0.9 {
		t.Errorf("the random seat is not recognised: %.3f", top)
	}
	if slices.Index(calc[:], slices.Max(calc[:])) != modelCalc {
		t.Errorf("Calculating's seat is not recognised: %.3f", calc)
	}
}

// bidEvidence is a negotiation in which Left (opponent) announced
// ColourClubs, Top (partner) answered with announce, and Right accepted;
// Bottom is to bid.
func bidEvidence(t *testing.T, announce giretra.Mode) (*giretra.Negotiation, *giretra.MatchState) {
	t.Helper()
	ms := giretra.NewMatchState(151, giretra.Bottom)
	neg := &giretra.Negotiation{Dealer: giretra.Bottom, Actions: []giretra.Action{
		{Type: giretra.Announce, Player: giretra.Left, Mode: giretra.ColourClubs},
		{Type: giretra.Announce, Player: giretra.Top, Mode: announce},
		{Type: giretra.Accept, Player: giretra.Right},
	}}
	if _, err := neg.State(); err != nil {
		t.Fatal(err)
	}
	return neg, &ms
}

func TestBidStepsOf(t *testing.T) {
	neg, _ := bidEvidence(t, giretra.ColourHearts)
	steps := bidStepsOf(giretra.Bottom, neg, nil)
	// Left's first announcement had a choice of every mode; Top's and
	// Right's too. None is Bottom's.
	if len(steps) != 3 {
		t.Fatalf("%d steps, want 3", len(steps))
	}
	for i, s := range steps {
		if s.did != neg.Actions[i] || len(s.neg.Actions) != i || !slices.ContainsFunc(s.valid, s.did.SameChoice) {
			t.Errorf("step %d = %+v", i, s)
		}
	}
	if got := bidStepsOf(giretra.Top, neg, nil); len(got) != 2 || hasBids(got, giretra.Top) {
		t.Errorf("Top's own bids listed: %+v", got)
	}
}

// A partner who announced a Colour is dealt, after weighting by its bids,
// more of that Colour's top cards than the rules alone give it.
func TestBidsShiftSampledHands(t *testing.T) {
	neg, ms := bidEvidence(t, giretra.ColourHearts)
	hand := P("7C 8D 9S QS KD")
	k := search.Knowledge{Seat: giretra.Bottom, Hand: hand, Mode: giretra.AllTrumps}
	for p := range giretra.Position(4) {
		k.Count[p] = 8
	}
	b := New(Config{})
	steps := bidStepsOf(giretra.Bottom, neg, nil)
	honours := P("JH 9H AH TH KH")
	const n = 400
	plain, weighted := 0.0, 0.0
	rng := rand.New(rand.NewPCG(1, 2))
	var h [4]giretra.Set
	for range n {
		if !k.Sample(rng, &h) {
			t.Fatal("no sample")
		}
		plain += float64((h[giretra.Top] & honours).Count())
	}
	ev := evidence{self: giretra.Bottom, bids: steps, match: ms}
	rs := b.newResampler(&k, rng, n, &ev, time.Time{})
	if rs == nil {
		t.Fatal("bids ignored")
	}
	for rs.deal(&h) {
		weighted += float64((h[giretra.Top] & honours).Count())
	}
	plain, weighted = plain/n, weighted/n
	t.Logf("heart honours in the partner's hand: %.2f plain, %.2f weighted by its bids", plain, weighted)
	if weighted < plain+0.5 {
		t.Errorf("weighted %.2f, plain %.2f: the announcement says little", weighted, plain)
	}
}

// testDeal is a deal in progress for the weighting tests.
type testDeal struct {
	hands, left [4]giretra.Set // dealt, still held
	neg         *giretra.Negotiation
	ctr         giretra.Contract
	hs          giretra.HandState
}

// randomDeal deals from rng, bids with bid until the bidding completes,
// and plays random legal cards plays times. ok is false when the bidding
// ends without a contract.
func randomDeal(t *testing.T, rng *rand.Rand, dealer giretra.Position, plays int, bid func(p giretra.Position, hand8 giretra.Set, neg *giretra.Negotiation, valid []giretra.Action) giretra.Action) (d testDeal, ok bool) {
	t.Helper()
	for i, c := range giretra.Shuffle(rng) {
		d.hands[i/8] |= c.Bit()
	}
	d.neg = &giretra.Negotiation{Dealer: dealer}
	st := giretra.NewBidding(dealer)
	for !st.Complete() {
		p := (dealer + 1 + giretra.Position(len(d.neg.Actions))) & 3
		a := bid(p, d.hands[p], d.neg, st.ValidActions(d.neg.Actions))
		if err := st.Apply(len(d.neg.Actions), a); err != nil {
			t.Fatal(err)
		}
		d.neg.Actions = append(d.neg.Actions, a)
	}
	if d.ctr, ok = st.Contract(); !ok {
		return d, false
	}
	d.hs = giretra.HandState{Mode: d.ctr.Mode, Current: giretra.NewTrick(dealer.Next())}
	d.left = d.hands
	for range plays {
		p := d.hs.Current.Next()
		cs := giretra.LegalPlays(d.left[p], &d.hs.Current, d.hs.Mode).Cards()
		c := cs[rng.IntN(len(cs))]
		d.left[p] &^= c.Bit()
		d.hs.Play(c)
	}
	return d, true
}

// Soft weights: any deal the rules allow keeps a positive weight, however
// unlike every model the seats' bids and plays are (here, the bids and
// cards of random players).
func TestEveryLegalDealKeepsWeight(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		dealer := giretra.Position(trial % 4)
		// Random bids until three accepts, random legal cards for a random
		// number of plays.
		random := func(_ giretra.Position, _ giretra.Set, _ *giretra.Negotiation, valid []giretra.Action) giretra.Action {
			return valid[rng.IntN(len(valid))]
		}
		td, ok := randomDeal(t, rng, dealer, rng.IntN(20), random)
		if !ok {
			t.Fatal("no contract")
		}
		hands, left, neg, ctr, hs := td.hands, td.left, td.neg, td.ctr, td.hs
		self := giretra.Position(rng.IntN(4))
		ms := giretra.NewMatchState(151, dealer)
		var playedBy [4]giretra.Set
		for p := range giretra.Position(4) {
			playedBy[p] = hands[p] &^ left[p]
		}
		b := New(Config{})
		d := dealLog{dealer: dealer, ctr: ctr, neg: neg, match: &ms, plays: playsOf(&hs, nil)}
		ev := evidence{self: self, d: &d, playedBy: playedBy, bids: bidStepsOf(self, neg, nil), match: &ms}
		for p := range giretra.Position(4) {
			ev.mix[p] = b.bh.mixture(p)
		}
		if w := b.bh.weight(&ev, &left, rng); !(w > 0) || math.IsInf(w, 0) {
			t.Fatalf("trial %d: the true deal has weight %v", trial, w)
		}
	}
}

// The memo of a decision's log-likelihoods changes no weight: candidate
// deals weighed in turn with one memo (as newResampler does) get exactly
// the weights each gets alone. It would fail if a replay or a bid model
// kept state from one candidate to the next, or if the memo key missed
// anything the likelihoods depend on (checked: without the model in the
// key it fails; the seat and the kind are implied by the hand, since the
// seats' hands are disjoint).
func TestMemoKeepsWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	reused := 0
	for trial := range 12 {
		dealer := giretra.Position(trial % 4)
		b := New(Config{})
		heuristic := func(p giretra.Position, hand8 giretra.Set, neg *giretra.Negotiation, valid []giretra.Action) giretra.Action {
			v := giretra.BidView{Seat: p, Hand: firstFive(hand8, rng), Negotiation: neg, Valid: valid}
			return chooseBid(&v)
		}
		// Late in the deal: few unseen cards.
		td, ok := randomDeal(t, rng, dealer, 16+rng.IntN(10), heuristic)
		if !ok {
			continue
		}
		hands, left, neg, ctr, hs := td.hands, td.left, td.neg, td.ctr, td.hs
		self := giretra.Position(trial % 4)
		ms := giretra.NewMatchState(151, dealer)
		k := search.Knowledge{Seat: self, Hand: left[self], Mode: ctr.Mode}
		for p := range giretra.Position(4) {
			k.Count[p] = left[p].Count()
		}
		k.Played = giretra.FullDeck &^ (left[0] | left[1] | left[2] | left[3])
		var playedBy [4]giretra.Set
		for p := range giretra.Position(4) {
			playedBy[p] = hands[p] &^ left[p]
		}
		d := dealLog{dealer: dealer, ctr: ctr, neg: neg, match: &ms, plays: playsOf(&hs, nil)}
		ev := evidence{self: self, d: &d, playedBy: playedBy, bids: bidStepsOf(self, neg, nil), match: &ms, memo: map[uint64]float64{}}
		for p := range giretra.Position(4) {
			ev.mix[p] = b.bh.mixture(p)
		}
		alone := ev
		alone.memo = nil
		seen := map[[2]giretra.Set]bool{} // seat, hand of eight
		for i := range 60 {
			var h [4]giretra.Set
			if !k.Sample(rng, &h) {
				t.Fatal("no sample")
			}
			got := b.bh.weight(&ev, &h, rand.New(rand.NewPCG(uint64(i), 9)))
			for p := range giretra.Position(4) {
				key := [2]giretra.Set{giretra.Set(p), h[p] | playedBy[p]}
				if p != self && playedBy[p] != 0 && seen[key] {
					reused++ // this seat's replays come from the memo
				}
				seen[key] = true
			}
			want := b.bh.weight(&alone, &h, rand.New(rand.NewPCG(uint64(i), 9)))
			if got != want {
				t.Fatalf("trial %d, candidate %d: weight %v with the memo, %v alone", trial, i, got, want)
			}
		}
	}
	// Reuse is what the memo is for; without any, the test checks nothing.
	t.Logf("%d seats' replays answered from the memo", reused)
	if reused < 200 {
		t.Errorf("the memo answered %d seats' replays: too few to test it", reused)
	}
}

// Weighing candidates stops at the deadline (only an overloaded server's
// decisions reach it): with one already past, the deals served come from
// the first few candidates; with none, from all of them.
func TestResamplerStopsAtDeadline(t *testing.T) {
	neg, ms := bidEvidence(t, giretra.ColourHearts)
	k := search.Knowledge{Seat: giretra.Bottom, Hand: P("7C 8D 9S QS KD"), Mode: giretra.AllTrumps}
	for p := range giretra.Position(4) {
		k.Count[p] = 8
	}
	distinct := func(deadline time.Time) int {
		b := New(Config{})
		ev := evidence{self: giretra.Bottom, bids: bidStepsOf(giretra.Bottom, neg, nil), match: ms}
		rs := b.newResampler(&k, rand.New(rand.NewPCG(7, 8)), 100, &ev, deadline)
		if rs == nil {
			t.Fatal("no resampler")
		}
		seen := map[[4]giretra.Set]bool{}
		var h [4]giretra.Set
		for rs.deal(&h) {
			seen[h] = true
		}
		return len(seen)
	}
	if n := distinct(time.Unix(1, 0)); n > 7 {
		t.Errorf("deadline passed: deals from %d candidates, want at most 7", n)
	}
	if n := distinct(time.Time{}); n < 20 {
		t.Errorf("no deadline: deals from %d candidates, want many", n)
	}
}

func BenchmarkResampleBids(b *testing.B) {
	t := &testing.T{}
	neg, ms := bidEvidence(t, giretra.ColourHearts)
	k := search.Knowledge{Seat: giretra.Bottom, Hand: P("7C 8D 9S QS KD"), Mode: giretra.AllTrumps}
	for p := range giretra.Position(4) {
		k.Count[p] = 8
	}
	bot := New(Config{})
	steps := bidStepsOf(giretra.Bottom, neg, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		ev := evidence{self: giretra.Bottom, bids: steps, match: ms}
		bot.newResampler(&k, rng, bidSamples, &ev, time.Time{})
	}
}

// The learned evaluator reads the behaviour mixture before evidence as
// the bot's prior.
func TestPriorMixIsTheModelPrior(t *testing.T) {
	for m := range nModels {
		if float64(bidmodel.PriorMix[m]) != float64(float32(modelPrior[m])) {
			t.Fatalf("bidmodel.PriorMix %v, modelPrior %v", bidmodel.PriorMix, modelPrior)
		}
	}
}
