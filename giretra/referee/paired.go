package referee

import (
	"errors"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/stats"
)

// The duplicate machinery of benchmark -duplicate and compare: the same
// deal sequences (decks and cuts) played by two players, compared deal
// sequence by deal sequence.

// tally is one player's results over some matches.
type tally struct {
	matches, wins int
	margin        int // match points scored minus conceded
	deals         int
}

func (t *tally) add(r *matchRecord, team giretra.Team) { t.addResult(&r.Result, team) }

// addResult counts a match team played (its points include the Colour
// sweep bonuses).
func (t *tally) addResult(r *giretra.MatchResult, team giretra.Team) {
	t.matches++
	if r.Winner == team {
		t.wins++
	}
	t.margin += r.Final.Points[team] - r.Final.Points[team.Other()]
	t.deals += len(r.Final.Deals)
}

// pairDiff is one deal sequence's paired difference, X minus Y: of the
// match win rates and of the margins per deal.
type pairDiff struct{ win, points float64 }

func diffOf(x, y tally) pairDiff {
	d := pairDiff{win: float64(x.wins)/float64(x.matches) - float64(y.wins)/float64(y.matches)}
	if x.deals > 0 && y.deals > 0 {
		d.points = float64(x.margin)/float64(x.deals) - float64(y.margin)/float64(y.deals)
	}
	return d
}

// Paired is the paired comparison over whole deal sequences.
type Paired struct {
	Pairs      int        `json:"dealSequences"`
	WinDiff    stats.Mean `json:"winRateDiff"`       // X's match win rate minus Y's
	PointsDiff stats.Mean `json:"pointsPerDealDiff"` // X's margin per deal minus Y's
}

func pairedOf(ds []pairDiff) *Paired {
	wins, pts := make([]float64, len(ds)), make([]float64, len(ds))
	for i, d := range ds {
		wins[i], pts[i] = d.win, d.points
	}
	return &Paired{Pairs: len(ds), WinDiff: stats.MeanCI(wins), PointsDiff: stats.MeanCI(pts)}
}

// pairUnits is benchmark -duplicate's deal sequences: matches 2j and
// 2j+1, the same decks and cuts with the teams swapped. A sequence with a
// match missing (aborted, interrupted) is left out.
func pairUnits(recs []*matchRecord) []pairDiff {
	var out []pairDiff
	for j := 0; j+1 < len(recs); j += 2 {
		r0, r1 := recs[j], recs[j+1]
		if r0 == nil || r1 == nil || r0.Err != nil || r1.Err != nil {
			continue
		}
		var a, b tally
		for _, r := range []*matchRecord{r0, r1} {
			a.add(r, r.ATeam)
			b.add(r, r.ATeam.Other())
		}
		out = append(out, diffOf(a, b))
	}
	return out
}

// Verdicts of the sequential test.
const (
	VerdictBetter       = "better"
	VerdictWorse        = "worse"
	VerdictSame         = "same"
	VerdictInconclusive = "inconclusive"
)

// sequential is compare's stopping rule, two one-sided sequential
// probability ratio tests run together (Sobel and Wald) on the mean
// paired difference: "better" tests 0 against +margin, "worse" 0 against
// −margin. A test stops when its ratio leaves its bounds; the comparison
// stops at "better" or "worse" as soon as one is accepted, or at "same"
// once both tests kept 0.
type sequential struct {
	better, worse stats.SPRT
	minN          int
	upper         float64 // the upper bound of log LR
	// state of each test: +1 accepted its alternative, −1 kept 0, 0 running
	betterState, worseState int
	// the last log likelihood ratios
	LLRBetter, LLRWorse float64
}

// minVariance keeps the ratio finite when every difference so far is the
// same (a 0.1 standard deviation: a tenth of a match per sequence).
const minVariance = 0.01

func newSequential(margin, alpha, beta float64, minN int) *sequential {
	better := stats.SPRT{Mu0: 0, Mu1: margin, Alpha: alpha, Beta: beta, MinVariance: minVariance}
	worse := better
	worse.Mu1 = -margin
	_, upper := better.Bounds()
	return &sequential{better: better, worse: worse, minN: minN, upper: upper}
}

// step takes the differences so far and returns the verdict, or "" to go on.
func (s *sequential) step(ds []float64) string {
	if len(ds) < 2 {
		return ""
	}
	var vb, vw stats.Verdict
	s.LLRBetter, vb = s.better.Test(ds)
	s.LLRWorse, vw = s.worse.Test(ds)
	if len(ds) < s.minN {
		return ""
	}
	decide := func(state *int, v stats.Verdict) {
		switch {
		case *state != 0:
		case v == stats.AcceptH1:
			*state = 1
		case v == stats.AcceptH0:
			*state = -1
		}
	}
	decide(&s.betterState, vb)
	decide(&s.worseState, vw)
	switch {
	case s.worseState == 1:
		return VerdictWorse
	case s.betterState == 1:
		return VerdictBetter
	case s.betterState == -1 && s.worseState == -1:
		return VerdictSame
	}
	return ""
}

// recordError is the first failure to write a record, as an
// infrastructure error.
func recordError(recs []*matchRecord) error {
	for _, r := range recs {
		if r != nil && r.RecordErr != nil {
			return &InfraError{errors.New("writing the record: " + r.RecordErr.Error())}
		}
	}
	return nil
}
