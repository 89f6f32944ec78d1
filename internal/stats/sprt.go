package stats

import "math"

// SPRT is Wald's sequential probability ratio test on the mean of a
// sample: H0 the true mean is Mu0, H1 it is Mu1. It uses the normal
// approximation of the log-likelihood ratio with the variance estimated
// from the sample (the generalized SPRT, the form chess engine testers
// use for match scores):
//
//	LLR = n·(Mu1 − Mu0)·(2·x̄ − Mu0 − Mu1) / (2·σ²)
//
// A run of equal observations has no spread, yet says a lot: σ² is
// guarded from 0 by a prior, one observation at each end of [Lo, Hi]
// added to the sample's (when Hi > Lo), and by MinVariance. The test
// accepts H1 when LLR ≥ log((1−β)/α), H0 when LLR ≤ log(β/(1−α)), and
// goes on in between.
type SPRT struct {
	Mu0, Mu1    float64
	Alpha, Beta float64
	Lo, Hi      float64 // the range of an observation, for the prior
	MinVariance float64
}

// EloSPRT tests match scores in [0, 1] (a draw 0.5) between two Elo
// differences, H0 elo0 and H1 elo1: their expected scores, with the prior
// of one win and one loss.
func EloSPRT(elo0, elo1, alpha, beta float64) SPRT {
	return SPRT{Mu0: EloExpected(elo0, 0), Mu1: EloExpected(elo1, 0), Alpha: alpha, Beta: beta, Lo: 0, Hi: 1}
}

// Verdict is the state of a sequential test.
type Verdict int

const (
	Continue Verdict = iota
	AcceptH0
	AcceptH1
)

func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "undecided"
}

// Bounds are the log-likelihood ratio's lower and upper stopping bounds.
func (t SPRT) Bounds() (lo, hi float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of the observations so far (0 with
// fewer than two).
func (t SPRT) LLR(xs []float64) float64 {
	m := MeanCI(xs)
	if m.N < 2 {
		return 0
	}
	n := float64(m.N)
	variance := m.SE * m.SE * n // the sample's, n−1 in the denominator
	if t.Hi > t.Lo {
		var ss float64
		for _, x := range xs {
			ss += (x - m.Mean) * (x - m.Mean)
		}
		ss += (m.Mean-t.Lo)*(m.Mean-t.Lo) + (t.Hi-m.Mean)*(t.Hi-m.Mean)
		variance = ss / (n + 1)
	}
	variance = max(variance, t.MinVariance)
	return n * (t.Mu1 - t.Mu0) * (2*m.Mean - t.Mu0 - t.Mu1) / (2 * variance)
}

// Test returns the LLR of the observations and the verdict.
func (t SPRT) Test(xs []float64) (float64, Verdict) {
	llr := t.LLR(xs)
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return llr, AcceptH1
	case llr <= lo:
		return llr, AcceptH0
	}
	return llr, Continue
}
