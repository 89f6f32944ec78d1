package search

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
)

var solverPool = sync.Pool{New: func() any { return NewSolver() }}

// Acquire takes a solver from a shared pool; Release returns it.
func Acquire() *Solver  { return solverPool.Get().(*Solver) }
func Release(s *Solver) { solverPool.Put(s) }

// Utility maps the final card points of the searching team (0..258) to
// what they are worth to it: match points won minus lost in the deal, a
// sweep's worth, a small bonus per card point. Only values in (Lo, Hi)
// are searched exactly; outside, bounds are used, which is close enough
// since the worth is nearly flat there (sweeps are checked apart).
type Utility struct {
	U      [259]float64
	Lo, Hi int
	Total  int
}

// MatchScore is the match situation a deal is played in, for the
// utilities: our points, theirs, the target. The zero value ignores it.
type MatchScore struct {
	Ours, Theirs, Target int
	// Edge is the match points a deal we expect to outscore the other team
	// by, on average (0: equal teams): the chance of winning is then that
	// of the favourite (WinTableWithEdge).
	Edge int
	// Linear values a deal by its points, plus or minus a fixed bonus
	// when it ends the match, instead of by the chance of winning (for
	// comparisons: bot:linear).
	Linear bool
}

// linearWinValue is what ending the match is worth in the Linear model,
// in match points of the deal.
const linearWinValue = 80

// DealValue is what a deal scoring ours/theirs match points is worth to
// us: with a target, the change it makes to our chance of winning the
// match (WinTable), in match points at the start of a match; without
// one, the difference.
func (ms MatchScore) DealValue(ours, theirs int) float64 {
	d := float64(ours - theirs)
	if ms.Target <= 0 {
		return d
	}
	if !ms.Linear {
		if t := WinTableWithEdge(ms.Target, ms.Edge); t != nil {
			return t.Value([2]int{ms.Ours, ms.Theirs}, ours, theirs)
		}
	}
	o, t := ms.Ours+ours, ms.Theirs+theirs
	switch {
	case o >= ms.Target && t >= ms.Target:
		return d
	case o >= ms.Target && o > t:
		return linearWinValue + 0.25*d
	case t >= ms.Target && t > o:
		return -linearWinValue + 0.25*d
	}
	return d
}

// ContractUtility builds the utility of team for contract c. sweep is the
// value of a Colour sweep per multiplier unit (instant win or 25 points in
// benchmarks); perPoint a tie-breaking bonus per card point.
func ContractUtility(c giretra.Contract, team giretra.Team, sweep, perPoint float64) *Utility {
	return ContractUtilityIn(c, team, sweep, perPoint, MatchScore{})
}

// ContractUtilityIn is ContractUtility weighing the match situation ms.
func ContractUtilityIn(c giretra.Contract, team giretra.Team, sweep, perPoint float64, ms MatchScore) *Utility {
	const w = 12
	var u Utility
	total := c.Mode.Total()
	u.Total = total
	switch {
	case c.Mode.IsColour():
		u.Lo, u.Hi = 81-w, 82+w
	case c.Mode == giretra.NoTrumps:
		u.Lo, u.Hi = 65-w, 65+w
	case c.Multiplier != giretra.Normal:
		u.Lo, u.Hi = 129-w, 129+w
	case c.AnnouncerTeam() == team:
		// Undoubled AllTrumps is graded above the threshold and flat
		// below it (the defenders' 26), so the window opens upwards only,
		// and the defenders' downwards. With the probes of ValuesWindow,
		// an AllTrumps deal at seven cards a hand takes 0.58 of the nodes
		// the whole range took (BenchmarkChoose/1), where the bot's
		// search is short of them.
		u.Lo, u.Hi = 129-w, 1000
	default:
		u.Lo, u.Hi = -1, 129+w
	}
	for v := 0; v <= total; v++ {
		var pts [2]int
		pts[team] = v
		pts[team.Other()] = total - v
		var tricks [2]int
		switch v {
		case total:
			tricks[team] = 8
		case 0:
			tricks[team.Other()] = 8
		default:
			tricks = [2]int{4, 4}
		}
		r := giretra.ScoreDeal(c, pts, tricks, 25)
		ours, theirs := r.MatchPoints[team], r.MatchPoints[team.Other()]
		if r.SweepBonus > 0 {
			b := int(sweep) * c.Multiplier.Factor()
			if r.SweepingTeam == team {
				ours += b
			} else {
				theirs += b
			}
		}
		u.U[v] = ms.DealValue(ours, theirs) + perPoint*float64(v)
	}
	for v := total + 1; v < len(u.U); v++ {
		u.U[v] = u.U[total]
	}
	return &u
}

// Params bound a determinized search. The work limits (Samples, Nodes)
// make the result a pure function of the inputs; Deadline and the context
// are safety nets.
type Params struct {
	Samples    int       // samples at most
	MinSamples int       // fewer completed samples: no answer (given early when the samples solved project it)
	Nodes      int64     // solver nodes at most, all samples together
	Deadline   time.Time // zero: none
	// Deals, when set, supplies the sampled deals instead of k.Sample
	// (a caller that weighs deals by behaviour and resamples them); it
	// reports false when it has no more.
	Deals func(hands *[4]giretra.Set) bool
	// Policy and PolicySeats, when set, are the solver's (Solver.Policy):
	// the card a seat plays in the current trick, by its model.
	Policy      func(p giretra.Position, hand giretra.Set, t *giretra.Trick) giretra.Card
	PolicySeats uint8
}

// Result is the outcome of Choose.
type Result struct {
	Card    giretra.Card
	Samples int
	Nodes   int64
	Value   [32]float64 // average utility per candidate card
}

// Choose picks, among valid, the card with the best average utility over
// samples of the hidden hands drawn from k, each solved exactly. prior is
// preferred on ties (the heuristic's choice). ok is false when too few
// samples could be solved within the limits.
func Choose(ctx context.Context, k *Knowledge, valid giretra.Set, u *Utility, rng *rand.Rand, prm Params, prior giretra.Card) (res Result, ok bool) {
	res.Card = giretra.NoCard
	if valid == 0 {
		return res, false
	}
	if valid.Count() == 1 {
		res.Card = valid.First()
		return res, true
	}
	if !k.Plausible() {
		return res, false
	}
	s := Acquire()
	defer Release(s)
	team := k.Seat.Team()
	s.Reset(k.Mode, team)
	base := k.Points[team]
	var rep [32]giretra.Card
	live := giretra.FullDeck&^k.Played | k.Trick.Set()
	reps := s.classes(valid, live, &rep)
	var sum [32]float64
	var vals [32]int
	var hands [4]giretra.Set
	busy := busyFrom(ctx)
	for res.Samples < prm.Samples {
		if ctx.Err() != nil {
			break
		}
		if !prm.Deadline.IsZero() && res.Samples > 0 && time.Now().After(prm.Deadline) {
			break
		}
		if prm.Deals != nil {
			if !prm.Deals(&hands) {
				break
			}
		} else if !k.Sample(rng, &hands) {
			break
		}
		left := prm.Nodes - res.Nodes
		if left <= 0 {
			break
		}
		s.Reset(k.Mode, team)
		s.Limit = left
		s.Deadline = prm.Deadline
		s.Policy, s.PolicySeats = prm.Policy, prm.PolicySeats
		s.Busy = busy
		alpha, beta := u.Lo-base, u.Hi-base
		okS := s.ValuesWindow(&hands, k.Trick, reps, alpha, beta, &vals)
		if okS {
			// Sweeps: all the remaining points, or none.
			for x := uint32(reps); x != 0 && okS; x &= x - 1 {
				c := giretra.Card(bits.TrailingZeros32(x))
				switch {
				case vals[c] >= beta && k.Tricks[team.Other()] == 0:
					if s.Reaches(&hands, k.Trick, c, u.Total-base) {
						vals[c] = u.Total - base
					}
				case vals[c] <= alpha && k.Tricks[team] == 0:
					if !s.Reaches(&hands, k.Trick, c, 1) {
						vals[c] = -base
					}
				}
				okS = !s.Stopped
			}
		}
		res.Nodes += s.Nodes
		if !okS {
			break
		}
		for x := uint32(valid); x != 0; x &= x - 1 {
			c := bits.TrailingZeros32(x)
			v := min(max(base+vals[rep[c]], 0), len(u.U)-1)
			sum[c] += u.U[v]
		}
		res.Samples++
		// Give up as soon as the samples solved, at their mean cost, say
		// the node limit ends before MinSamples: the caller's fallback
		// gets the time a doomed search would have spent.
		if short := int64(prm.MinSamples - res.Samples); short > 0 && res.Nodes+short*res.Nodes/int64(res.Samples) > prm.Nodes {
			break
		}
	}
	if res.Samples < max(prm.MinSamples, 1) {
		return res, false
	}
	best, bestV := giretra.NoCard, 0.0
	for x := uint32(valid); x != 0; x &= x - 1 {
		c := giretra.Card(bits.TrailingZeros32(x))
		v := sum[c] / float64(res.Samples)
		res.Value[c] = v
		if c == prior {
			v += 1e-6
		}
		if best == giretra.NoCard || v > bestV {
			best, bestV = c, v
		}
	}
	res.Card = best
	return res, true
}
