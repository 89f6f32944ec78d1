package referee

import (
	"context"
	"fmt"
	"time"

	"github.com/botarena/gamebot/giretra"
)

// CompareReport is compare's result.
type CompareReport struct {
	Candidate string   `json:"candidate"`
	Baseline  string   `json:"baseline"`
	Opponents []string `json:"opponents"` // empty: head-to-head
	Partner   string   `json:"partner,omitempty"`
	Target    int      `json:"targetScore"`
	Sweep     int      `json:"colourSweepPoints"`
	Seed      int64    `json:"seed"`
	MaxPairs  int      `json:"maxDealSequences"`
	Margin    float64  `json:"margin"`
	Alpha     float64  `json:"alpha"`
	// Matches is every match played to reach the verdict (both versions).
	Matches       int     `json:"matches"`
	Paired        *Paired `json:"paired"`
	CandidateWins int     `json:"candidateWins"`
	CandidateOf   int     `json:"candidateMatches"`
	BaselineWins  int     `json:"baselineWins"`
	BaselineOf    int     `json:"baselineMatches"`
	LLRBetter     float64 `json:"llrBetter"`
	LLRWorse      float64 `json:"llrWorse"`
	Bound         float64 `json:"llrBound"`
	Verdict       string  `json:"verdict"` // better, worse, same, inconclusive
	Aborted       string  `json:"aborted,omitempty"`
	Interrupted   bool    `json:"interrupted,omitempty"`
	Seconds       float64 `json:"durationSeconds"`
}

// compareUnit is one deal sequence of a compare run: every game of both
// versions on its decks, and their tallies.
type compareUnit struct {
	games     []int // indexes in the run's games
	done      int
	cand, bas tally
	failed    bool
}

// compareGames lays out the games of deal sequence j: head-to-head (no
// opponents) the candidate against the baseline in both seatings;
// otherwise each version against each opponent in both seatings. Every
// game of the sequence has its decks and cuts; the two versions' games
// against an opponent in a seating share that opponent's random stream and
// session seeds.
func compareGames(p *plan, j int, cand, base, partner *side, ops []*side) []game {
	var out []game
	perUnit := 2 * max(1, len(ops))
	mk := func(a, b *side, team giretra.Team, slot int, seeds [nSides]int64) game {
		k := j*perUnit + slot
		return game{a: a, b: b, partner: partner, aTeam: team, dealer: giretra.Position(j % 4), deck: uint64(j),
			fixCuts: true, seeds: seeds, k: [nSides]int{k, k, k}, dealSeq: j + 1}
	}
	candSeed, baseSeed, partnerSeed := p.seed, p.seed+10000, p.seed+90000
	if len(ops) == 0 {
		for s := range 2 {
			out = append(out, mk(cand, base, giretra.Team(s), s, [nSides]int64{candSeed, baseSeed, partnerSeed}))
		}
	}
	for oi, op := range ops {
		opSeed := p.seed + 20000 + int64(oi)*10000
		for s := range 2 {
			out = append(out,
				mk(cand, op, giretra.Team(s), 2*oi+s, [nSides]int64{candSeed, opSeed, partnerSeed}),
				mk(base, op, giretra.Team(s), 2*oi+s, [nSides]int64{baseSeed, opSeed, partnerSeed}))
		}
	}
	return out
}

// CompareConfig is a regression gate: Candidate and Baseline on the same
// deal sequences, against each of Opponents (none: head-to-head), until a
// sequential test tells them apart or MaxPairs sequences are played.
type CompareConfig struct {
	Setup
	Baseline, Candidate string
	Opponents           []string
	MaxPairs            int
	// Margin is the smallest difference in match win rate worth
	// detecting; Alpha and Beta the error rates of each sequential test;
	// MinPairs the sequences played before it may stop.
	Margin, Alpha, Beta float64
	MinPairs            int
}

// Compare plays the comparison and returns its report. As the engine's
// benchmark, it stops at the first match that fails (Aborted).
// Interrupted (ctx done), it reports the deal sequences finished so far,
// marked Interrupted. A failure to write a record comes back with the
// report, as an *InfraError.
func Compare(ctx context.Context, c CompareConfig) (*CompareReport, error) {
	if err := prepareRecordDir(c.RecordDir); err != nil {
		return nil, err
	}
	sd, err := c.openCompare(ctx)
	defer sd.close()
	if err != nil {
		return nil, err
	}
	p := c.plan("compare", c.MaxPairs)
	p.abortOnErr = true
	p.recordPrefix = "compare"
	games, units, unitOf := layoutCompare(p, c.MaxPairs, sd)

	test := newSequential(c.Margin, c.Alpha, c.Beta, c.MinPairs)
	var diffs []float64
	next := 0 // the first sequence not yet in diffs
	verdict := ""
	progress := newTracker(c.Progress, len(games))
	start := time.Now()
	recs := playAll(ctx, p, games, func(r *matchRecord) bool {
		progress.done(r)
		u := units[unitOf[r.Index]]
		u.done++
		if r.Err != nil {
			u.failed = true
			return true
		}
		g := r.Game
		if g.a == sd.cand {
			u.cand.add(r, g.aTeam)
		} else {
			u.bas.add(r, g.aTeam)
		}
		if g.b == sd.base { // head-to-head: the baseline is side b
			u.bas.add(r, g.aTeam.Other())
		}
		// Sequences enter the test in order, so the verdict does not
		// depend on which match finished first.
		for verdict == "" && next < len(units) && units[next].done == len(units[next].games) && !units[next].failed {
			diffs = append(diffs, diffOf(units[next].cand, units[next].bas).win)
			next++
			verdict = test.step(diffs)
		}
		return verdict == ""
	})
	rep := &CompareReport{Candidate: sd.cand.name, Baseline: sd.base.name, Opponents: []string{}, Target: p.target, Sweep: p.sweep,
		Seed: p.seed, MaxPairs: c.MaxPairs, Margin: c.Margin, Alpha: c.Alpha, Bound: test.upper,
		LLRBetter: test.LLRBetter, LLRWorse: test.LLRWorse, Verdict: verdict, Interrupted: ctx.Err() != nil,
		Seconds: roundSeconds(time.Since(start))}
	rep.tally(sd, units[:next], recs, next == len(units))
	return rep, recordError(recs)
}

// compareSides are the players of a compare run.
type compareSides struct {
	cand, base, partner *side
	ops                 []*side
	opened              []*side
}

func (sd *compareSides) close() {
	for _, s := range sd.opened {
		s.close()
	}
}

// openCompare opens the candidate, the baseline, the opponents and the
// partner; on failure what it opened is in the sides returned, to close.
func (c *CompareConfig) openCompare(ctx context.Context) (*compareSides, error) {
	sd := &compareSides{}
	open := func(spec string) (*side, error) {
		s, err := c.open(ctx, spec)
		if err == nil {
			sd.opened = append(sd.opened, s)
		}
		return s, err
	}
	var err error
	if sd.cand, err = open(c.Candidate); err != nil {
		return sd, err
	}
	if sd.base, err = open(c.Baseline); err != nil {
		return sd, err
	}
	if sd.cand.name == sd.base.name {
		sd.cand.name, sd.base.name = sd.cand.name+" [candidate]", sd.base.name+" [baseline]"
	}
	for _, spec := range c.Opponents {
		s, err := open(spec)
		if err != nil {
			return sd, err
		}
		sd.ops = append(sd.ops, s)
	}
	if c.Partner != "" {
		if sd.partner, err = open(c.Partner); err != nil {
			return sd, err
		}
	}
	return sd, nil
}

// layoutCompare is the games of up to n deal sequences, by sequence, and
// the sequence of each game.
func layoutCompare(p *plan, n int, sd *compareSides) ([]game, []*compareUnit, []int) {
	var games []game
	var units []*compareUnit
	for j := range n {
		u := &compareUnit{}
		for _, g := range compareGames(p, j, sd.cand, sd.base, sd.partner, sd.ops) {
			g.index = len(games)
			u.games = append(u.games, g.index)
			games = append(games, g)
		}
		units = append(units, u)
	}
	unitOf := make([]int, len(games))
	for j, u := range units {
		for _, gi := range u.games {
			unitOf[gi] = j
		}
	}
	return games, units, unitOf
}

// tally fills the report from the deal sequences the test took in (all
// of them when capped) and the records of the run.
func (rep *CompareReport) tally(sd *compareSides, units []*compareUnit, recs []*matchRecord, capped bool) {
	if sd.partner != nil {
		rep.Partner = sd.partner.name
	}
	for _, s := range sd.ops {
		rep.Opponents = append(rep.Opponents, s.name)
	}
	var ds []pairDiff
	for _, u := range units {
		ds = append(ds, diffOf(u.cand, u.bas))
		rep.Matches += len(u.games)
		rep.CandidateWins += u.cand.wins
		rep.CandidateOf += u.cand.matches
		rep.BaselineWins += u.bas.wins
		rep.BaselineOf += u.bas.matches
	}
	rep.Paired = pairedOf(ds)
	for _, r := range recs {
		if r != nil && r.Err != nil && !isCanceled(r.Err) {
			rep.Aborted = fmt.Sprintf("match %d (deal %d) of %s: %v", r.Index+1, dealNo(&r.Result.Final), r.Game.a.name, r.Err)
			break
		}
	}
	if rep.Verdict == "" {
		rep.Verdict = VerdictInconclusive
		// At the cap, an interval wholly below 0 still says worse.
		if capped && rep.Paired.Pairs >= 2 && rep.Paired.WinDiff.Hi < 0 {
			rep.Verdict = VerdictWorse
		}
	}
}
