package referee

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/stats"
)

// CompareReport is compare's result; -json prints it as is.
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

func Compare(ctx context.Context, o *Options, env *Env) error {
	if o.Baseline == "" || o.Candidate == "" {
		return UsageErr("compare needs -baseline and -candidate")
	}
	if err := prepareRecordDir(o.RecordDir); err != nil {
		return err
	}
	var opened []*side
	defer func() {
		for _, s := range opened {
			s.close()
		}
	}()
	open := func(spec string) (*side, error) {
		s, err := o.open(ctx, spec, env.Stderr)
		if err == nil {
			opened = append(opened, s)
		}
		return s, err
	}
	cand, err := open(o.Candidate)
	if err != nil {
		return err
	}
	base, err := open(o.Baseline)
	if err != nil {
		return err
	}
	if cand.name == base.name {
		cand.name, base.name = cand.name+" [candidate]", base.name+" [baseline]"
	}
	var ops []*side
	for _, spec := range o.Args {
		s, err := open(spec)
		if err != nil {
			return err
		}
		ops = append(ops, s)
	}
	var partner *side
	if o.Partner != "" {
		if partner, err = open(o.Partner); err != nil {
			return err
		}
	}

	p := o.plan("compare")
	p.abortOnErr = true
	p.recordPrefix = "compare"
	var games []game
	var units []*compareUnit
	for j := range o.Matches {
		u := &compareUnit{}
		for _, g := range compareGames(p, j, cand, base, partner, ops) {
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

	test := newSequential(o.Margin, o.Alpha, o.Beta, o.MinPairs)
	var diffs []float64
	next := 0 // the first sequence not yet in diffs
	verdict := ""
	bar := newProgress(env, o, len(games))
	start := time.Now()
	recs := playAll(ctx, p, games, func(r *matchRecord) bool {
		bar.update(r)
		u := units[unitOf[r.Index]]
		u.done++
		if r.Err != nil {
			u.failed = true
			return true
		}
		g := r.Game
		if g.a == cand {
			u.cand.add(r, g.aTeam)
		} else {
			u.bas.add(r, g.aTeam)
		}
		if g.b == base { // head-to-head: the baseline is side b
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
	bar.finish()

	rep := &CompareReport{Candidate: cand.name, Baseline: base.name, Opponents: []string{}, Target: p.target, Sweep: p.sweep,
		Seed: p.seed, MaxPairs: o.Matches, Margin: o.Margin, Alpha: o.Alpha, Bound: test.upper,
		LLRBetter: test.LLRBetter, LLRWorse: test.LLRWorse, Verdict: verdict, Interrupted: ctx.Err() != nil,
		Seconds: math.Round(time.Since(start).Seconds()*100) / 100}
	if partner != nil {
		rep.Partner = partner.name
	}
	for _, s := range ops {
		rep.Opponents = append(rep.Opponents, s.name)
	}
	var ds []pairDiff
	for _, u := range units[:next] {
		ds = append(ds, diffOf(u.cand, u.bas))
		rep.Matches += len(u.games)
		rep.CandidateWins += u.cand.wins
		rep.CandidateOf += u.cand.matches
		rep.BaselineWins += u.bas.wins
		rep.BaselineOf += u.bas.matches
	}
	rep.Paired = pairedOf(ds)
	for _, r := range recs {
		if r != nil && r.Err != nil && !errors.Is(r.Err, context.Canceled) {
			rep.Aborted = fmt.Sprintf("match %d (deal %d) of %s: %v", r.Index+1, dealNo(&r.Result.Final), r.Game.a.name, r.Err)
			break
		}
	}
	if rep.Verdict == "" {
		rep.Verdict = VerdictInconclusive
		// At the cap, an interval wholly below 0 still says worse.
		if next == len(units) && rep.Paired.Pairs >= 2 && rep.Paired.WinDiff.Hi < 0 {
			rep.Verdict = VerdictWorse
		}
	}
	if err := emit(o, env, rep, rep.print); err != nil {
		return err
	}
	if err := ending(ctx, rep.Aborted != "" || rep.Verdict == VerdictWorse); err != nil {
		return err
	}
	return recordError(recs)
}

func (rep *CompareReport) print(w io.Writer) {
	against := "head-to-head"
	if len(rep.Opponents) > 0 {
		against = "against " + strings.Join(rep.Opponents, ", ")
	}
	fmt.Fprintf(w, "Compare %s (candidate) with %s (baseline), %s\n", rep.Candidate, rep.Baseline, against)
	if rep.Partner != "" {
		fmt.Fprintf(w, "  each version partnered with %s\n", rep.Partner)
	}
	fmt.Fprintf(w, "  duplicate: each deal sequence is played by both versions in both seatings, same decks and cuts\n")
	fmt.Fprintf(w, "  target %d, Colour sweep %s, seed %d, margin %.3g, alpha = beta = %.3g, %.1fs\n\n",
		rep.Target, sweepText(rep.Sweep), rep.Seed, rep.Margin, rep.Alpha, rep.Seconds)
	if rep.Aborted != "" {
		fmt.Fprintf(w, "ABORTED: %s\n\n", rep.Aborted)
	}
	if rep.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED: the figures cover the deal sequences finished\n\n")
	}
	d := rep.Paired
	fmt.Fprintf(w, "Played       %d deal sequences, %d matches (at most %d sequences)\n", d.Pairs, rep.Matches, rep.MaxPairs)
	cl, ch := stats.Wilson(rep.CandidateWins, rep.CandidateOf)
	bl, bh := stats.Wilson(rep.BaselineWins, rep.BaselineOf)
	fmt.Fprintf(w, "Win rate     candidate %d/%d = %.1f%% [%.1f%% – %.1f%%], baseline %d/%d = %.1f%% [%.1f%% – %.1f%%] (Wilson 95%%)\n",
		rep.CandidateWins, rep.CandidateOf, pct(rep.CandidateWins, rep.CandidateOf), 100*cl, 100*ch,
		rep.BaselineWins, rep.BaselineOf, pct(rep.BaselineWins, rep.BaselineOf), 100*bl, 100*bh)
	fmt.Fprintf(w, "Difference   win rate %+.3f [%+.3f, %+.3f], margin per deal (match points scored − conceded) %+.2f [%+.2f, %+.2f] (paired by deal sequence, 95%%)\n",
		d.WinDiff.Mean, d.WinDiff.Lo, d.WinDiff.Hi, d.PointsDiff.Mean, d.PointsDiff.Lo, d.PointsDiff.Hi)
	fmt.Fprintf(w, "Sequential   log LR better (0 vs +%.3g) %+.2f, worse (0 vs −%.3g) %+.2f; bounds ±%.2f\n\n",
		rep.Margin, rep.LLRBetter, rep.Margin, rep.LLRWorse, rep.Bound)
	switch rep.Verdict {
	case VerdictBetter:
		fmt.Fprintf(w, "BETTER: the candidate's win rate is higher than the baseline's (by %.3g or more)\n", rep.Margin)
	case VerdictWorse:
		fmt.Fprintf(w, "WORSE: the candidate's win rate is lower than the baseline's\n")
	case VerdictSame:
		fmt.Fprintf(w, "SAME: no difference of %.3g or more either way\n", rep.Margin)
	default:
		fmt.Fprintf(w, "INCONCLUSIVE: no verdict within %d deal sequences (raise -n, or -margin)\n", rep.MaxPairs)
	}
}

func pct(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(k) / float64(n)
}
