package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
)

// Search limits at Effort 1. The node limit is what normally ends a
// decision (deterministic); the time budget is the safety net. These (and
// bidSamples) gained +1.09 [+0.06, +2.12] match points per deal over half
// of them (bot:effort=0.5) against Eva at target 151 (600 duplicate
// matches on tuning seeds 430000); solving from 6 cards instead of 7
// changed nothing measurable.
const (
	maxSamples   = 80
	minSamples   = 4
	nodesPerCard = 500_000
	// searchFromCards: search only when the hand has at most this many
	// cards (a full-deal solve costs ~1e5 nodes per move and sample);
	// with more, rollouts of the heuristic.
	searchFromCards = 7
	// perPoint is the worth of a card point next to the contract's match
	// points: a margin that makes the plan robust to the unseen cards
	// (measured: 0.2 > 0.1 > 0.03 against eva).
	perPoint       = 0.2
	rolloutSamples = 48
	rolloutZ       = 1.0 // standard errors a rollout must beat the heuristic by
	// sweepValue is what the search and the bidding count a Colour sweep
	// for, per multiplier unit: above the 25 points the engine's
	// benchmarks award, because under validate's and the web app's rules
	// a sweep wins the match outright (the bot cannot tell which rule a
	// table plays).
	sweepValue = 30
)

// searchCard chooses a card by determinized search, falling back to the
// heuristic when the position is too big for the budget or the search
// cannot finish enough samples.
func (b *Bot) searchCard(ctx context.Context, v *giretra.PlayView, pc *playCtx) giretra.Card {
	prior := pc.choose()
	if ctx.Err() != nil {
		return prior
	}
	if v.Hand.Count() > searchFromCards {
		return b.rolloutCard(ctx, v, pc, prior)
	}
	k := pc.k
	k.AddBiddingHints(pc.neg)
	b.reveal(&k, false)
	u := search.ContractUtilityIn(pc.ctr, v.Seat.Team(), sweepValue, perPoint, b.matchScore(v.Match, v.Seat.Team()))
	prm := search.Params{
		Samples:    int(maxSamples * b.cfg.Effort),
		MinSamples: minSamples,
		Nodes:      int64(nodesPerCard * b.cfg.Effort),
		Deadline:   b.deadline(ctx),
	}
	rng := rand.New(rand.NewPCG(b.seedFor(v), 0x6a09e667))
	if rs := b.behaviourDeals(v, pc, &k, rng, prm.Samples, prm.Deadline); rs != nil {
		prm.Deals = rs.deal
	}
	prm.PolicySeats, prm.Policy = b.trickPolicy(v, pc)
	res, ok := search.Choose(ctx, &k, pc.valid, u, rng, prm, prior)
	if !ok || !pc.valid.Has(res.Card) {
		// Too big to solve on enough deals: the rollouts of the early
		// tricks rather than the heuristic alone.
		return b.rolloutCard(ctx, v, pc, prior)
	}
	b.explained(v, ExplainSearch, pc.valid, &res.Value, 1, res.Samples, prior, res.Card)
	return res.Card
}

// seedFor hashes the visible state of a card decision.
func (b *Bot) seedFor(v *giretra.PlayView) uint64 {
	parts := []uint64{uint64(v.Seat), uint64(v.Hand), uint64(v.State.Played()), uint64(v.State.Mode)}
	if v.Match != nil {
		parts = append(parts, uint64(len(v.Match.Deals)), uint64(v.Match.Points[0]), uint64(v.Match.Points[1]))
	}
	for i := range v.State.Completed {
		parts = append(parts, uint64(v.State.Completed[i].Leader))
	}
	parts = append(parts, uint64(v.State.Current.Leader), uint64(v.State.Current.N))
	return stateSeed(parts...)
}

// matchScore is the match situation seen by team, valued as configured.
func (b *Bot) matchScore(m *giretra.MatchState, team giretra.Team) search.MatchScore {
	if m == nil {
		return search.MatchScore{Linear: b.cfg.LinearScore}
	}
	return search.MatchScore{Ours: m.Points[team], Theirs: m.Points[team.Other()], Target: m.TargetScore, Edge: b.cfg.Edge, Linear: b.cfg.LinearScore}
}

// rolloutCard chooses a card early in the deal, where exact solving is too
// expensive: each candidate is played out on sampled deals by the
// heuristic on all seats; the best average wins, the heuristic's own
// choice unless another is clearly better.
func (b *Bot) rolloutCard(ctx context.Context, v *giretra.PlayView, pc *playCtx, prior giretra.Card) giretra.Card {
	k := pc.k
	if !k.Plausible() {
		return prior
	}
	k.AddBiddingHints(pc.neg)
	b.reveal(&k, false)
	team := v.Seat.Team()
	ms := b.matchScore(v.Match, team)
	n := int(rolloutSamples * b.cfg.Effort)
	deadline := b.deadline(ctx)
	rng := rand.New(rand.NewPCG(b.seedFor(v), 0x3c6ef372))
	sample := func(h *[4]giretra.Set) bool { return k.Sample(rng, h) }
	if rs := b.behaviourDeals(v, pc, &k, rng, n, deadline); rs != nil {
		sample = rs.deal
	}
	var sum, dsum, dsq [32]float64
	var hands [4]giretra.Set
	buf := make([]giretra.Trick, 0, 8)
	base := b.playoutModels(v.Seat)
	if base != nil {
		base.catchUp(v, pc)
	}
	var sm seatModels
	done := 0
	for done < n {
		if ctx.Err() != nil || (done > 0 && time.Now().After(deadline)) {
			break
		}
		search.Yield(ctx) // cheap requests first when every CPU searches
		if !sample(&hands) {
			break
		}
		var x [32]float64
		for c := range pc.valid.All() {
			var smp *seatModels
			if base != nil {
				sm = *base
				smp = &sm
			}
			x[c] = playOutFrom(hands, v.State, c, pc.ctr, pc.neg, team, ms, buf, smp, v.Match)
			sum[c] += x[c]
		}
		for c := range pc.valid.All() {
			d := x[c] - x[prior]
			dsum[c] += d
			dsq[c] += d * d
		}
		done++
	}
	if done < 8 {
		return prior
	}
	nf := float64(done)
	best, bestV := prior, 0.0
	for c := range pc.valid.All() {
		if c == prior {
			continue
		}
		mean := dsum[c] / nf
		sd := math.Sqrt(max(dsq[c]/nf-mean*mean, 0))
		if val := mean - rolloutZ*sd/math.Sqrt(nf); val > bestV {
			best, bestV = c, val
		}
	}
	b.explained(v, ExplainRollout, pc.valid, &sum, done, done, prior, best)
	return best
}

// behaviourDeals is the source of n deals weighed by the other seats'
// bids and plays this deal, or nil to sample plainly (inference off,
// nothing done yet by another seat, or weights that say nothing). The
// caller holds b.mu.
func (b *Bot) behaviourDeals(v *giretra.PlayView, pc *playCtx, k *search.Knowledge, rng *rand.Rand, n int, deadline time.Time) *resampler {
	if b.cfg.NoInference || v.Match == nil {
		return nil
	}
	b.plays = playsOf(v.State, b.plays)
	d := dealLog{dealer: v.Match.Dealer, ctr: pc.ctr, neg: pc.neg, match: v.Match, plays: b.plays}
	b.steps = bidStepsOf(v.Seat, pc.neg, b.steps)
	ev := evidence{self: v.Seat, d: &d, playedBy: k.PlayedBy, bids: b.steps, match: v.Match}
	return b.newResampler(k, rng, n, &ev, deadline)
}
