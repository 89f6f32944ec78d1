package referee

import (
	"errors"
	"math"

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

// MeanCI is a mean with its 95% interval, as JSON.
type MeanCI struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"low95"`
	Hi   float64 `json:"high95"`
}

func meanOf(xs []float64) MeanCI {
	m := stats.MeanCI(xs)
	return MeanCI{Mean: m.Mean, Lo: m.Lo, Hi: m.Hi}
}

// Paired is the paired comparison over whole deal sequences.
type Paired struct {
	Pairs      int    `json:"dealSequences"`
	WinDiff    MeanCI `json:"winRateDiff"`       // X's match win rate minus Y's
	PointsDiff MeanCI `json:"pointsPerDealDiff"` // X's margin per deal minus Y's
}

func pairedOf(ds []pairDiff) *Paired {
	wins, pts := make([]float64, len(ds)), make([]float64, len(ds))
	for i, d := range ds {
		wins[i], pts[i] = d.win, d.points
	}
	return &Paired{Pairs: len(ds), WinDiff: meanOf(wins), PointsDiff: meanOf(pts)}
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
// probability ratio tests run together (Sobel and Wald): "better" tests a
// mean paired difference of 0 against +margin, "worse" 0 against −margin.
// The likelihood ratios are the normal approximation with the variance
// estimated from the sample (the generalized SPRT): after n differences
// of mean μ and variance σ², log LR = n·(μ1−μ0)·(2μ − μ0 − μ1) / (2σ²).
// A test stops when its ratio leaves (ln(β/(1−α)), ln((1−β)/α)); the
// comparison stops at "better" or "worse" as soon as one is accepted, or
// at "same" once both tests kept 0.
type sequential struct {
	margin       float64
	alpha, beta  float64
	minN         int
	upper, lower float64 // the bounds of log LR
	// state of each test: +1 accepted its alternative, −1 kept 0, 0 running
	better, worse int
	// the last log likelihood ratios
	LLRBetter, LLRWorse float64
}

func newSequential(margin, alpha, beta float64, minN int) *sequential {
	return &sequential{margin: margin, alpha: alpha, beta: beta, minN: minN,
		upper: math.Log((1 - beta) / alpha), lower: math.Log(beta / (1 - alpha))}
}

// minVariance keeps the ratio finite when every difference so far is the
// same (a 0.1 standard deviation: a tenth of a match per sequence).
const minVariance = 0.01

// step takes the differences so far and returns the verdict, or "" to go on.
func (s *sequential) step(ds []float64) string {
	n := len(ds)
	if n < 2 {
		return ""
	}
	m := stats.MeanCI(ds)
	v := max(m.SE*m.SE*float64(n), minVariance)
	s.LLRBetter = float64(n) * s.margin * (2*m.Mean - s.margin) / (2 * v)
	s.LLRWorse = float64(n) * s.margin * (-2*m.Mean - s.margin) / (2 * v)
	if n < s.minN {
		return ""
	}
	decide := func(state *int, llr float64) {
		switch {
		case *state != 0:
		case llr >= s.upper:
			*state = 1
		case llr <= s.lower:
			*state = -1
		}
	}
	decide(&s.better, s.LLRBetter)
	decide(&s.worse, s.LLRWorse)
	switch {
	case s.worse == 1:
		return VerdictWorse
	case s.better == 1:
		return VerdictBetter
	case s.better == -1 && s.worse == -1:
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
