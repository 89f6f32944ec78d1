package stats

import "math"

// SPRT is a sequential probability ratio test between two Elo
// hypotheses, for match scores in [0, 1] (a draw 0.5): H0 the true
// difference is Elo0, H1 it is Elo1. It uses the normal approximation of
// the log-likelihood ratio of the mean score (the form chess engine
// testers use for trinomial results):
//
//	LLR = n·(s1 − s0)·(2·x̄ − s0 − s1) / (2·σ²)
//
// with s_i the expected score at Elo_i, x̄ the sample mean and σ² the
// variance of the sample with one win and one loss added (a weak prior:
// a run of equal scores has no spread, yet says a lot). The test accepts H1 when LLR ≥ log((1−β)/α), H0 when LLR ≤
// log(β/(1−α)), and goes on in between.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
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

// LLR is the log-likelihood ratio of the scores so far (0 with fewer than
// two).
func (t SPRT) LLR(scores []float64) float64 {
	m := MeanCI(scores)
	if m.N < 2 {
		return 0
	}
	var ss float64
	for _, x := range scores {
		ss += (x - m.Mean) * (x - m.Mean)
	}
	ss += m.Mean*m.Mean + (1-m.Mean)*(1-m.Mean)
	variance := ss / float64(m.N+1)
	s0, s1 := EloExpected(t.Elo0, 0), EloExpected(t.Elo1, 0)
	return float64(m.N) * (s1 - s0) * (2*m.Mean - s0 - s1) / (2 * variance)
}

// Test returns the LLR of the scores and the verdict.
func (t SPRT) Test(scores []float64) (float64, Verdict) {
	llr := t.LLR(scores)
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return llr, AcceptH1
	case llr <= lo:
		return llr, AcceptH0
	}
	return llr, Continue
}
