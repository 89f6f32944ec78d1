// Package stats holds the few statistics the referees and measurement
// commands report: the Wilson interval of a win rate, its p-value against
// 50%, Elo ratings and differences, the mean of a sample with its 95%
// interval, and the sequential test on such a mean. One copy, so that two
// commands never disagree on a figure.
package stats

import "math"

// Z95 is the two-sided 95% quantile of the normal distribution.
const Z95 = 1.959964

// Wilson is the Wilson score 95% interval of a rate of k successes in n
// trials: (0, 1) when there are no trials, since nothing is known then.
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	fn := float64(n)
	p := float64(k) / fn
	den := 1 + Z95*Z95/fn
	center := (p + Z95*Z95/(2*fn)) / den
	half := Z95 * math.Sqrt(p*(1-p)/fn+Z95*Z95/(4*fn*fn)) / den
	// The interval lies in [0, 1]; clamping only removes rounding error.
	return max(0, center-half), min(1, center+half)
}

// PValue is the two-tailed p-value of k wins in n games against a 50% win
// rate, by the normal approximation the Giretra engine's benchmark uses;
// 1 when there are no games.
func PValue(k, n int) float64 {
	if n <= 0 {
		return 1
	}
	z := (float64(k)/float64(n) - 0.5) / math.Sqrt(0.25/float64(n))
	return math.Erfc(math.Abs(z) / math.Sqrt2)
}

// EloExpected is the expected score of a player rated ra against one
// rated rb.
func EloExpected(ra, rb float64) float64 {
	return 1 / (1 + math.Pow(10, (rb-ra)/400))
}

// EloUpdate returns both ratings after one game in which the first player
// scored sa (1 win, 0.5 draw, 0 loss), with factor k.
func EloUpdate(ra, rb, sa, k float64) (float64, float64) {
	ea := EloExpected(ra, rb)
	return ra + k*(sa-ea), rb + k*((1-sa)-(1-ea))
}

// MaxEloDiff bounds EloDiff: a score rate of 0 or 1 implies an infinite
// difference, which no finite sample supports.
const MaxEloDiff = 1200

// EloDiff is the rating difference implied by a score rate p,
// −400·log10(1/p − 1), clamped to ±MaxEloDiff (a rate outside (0, 1), such
// as the bound of a normal interval, takes the clamp); 0 for NaN.
func EloDiff(p float64) float64 {
	switch {
	case math.IsNaN(p):
		return 0
	case p <= 0:
		return -MaxEloDiff
	case p >= 1:
		return MaxEloDiff
	}
	d := -400 * math.Log10(1/p-1)
	if d == 0 {
		return 0 // not −0, which prints as "-0"
	}
	return max(-MaxEloDiff, min(MaxEloDiff, d))
}

// EloInterval is the Elo difference implied by k wins in n games, with the
// Wilson 95% interval of the win rate carried through EloDiff; 0 and
// ±MaxEloDiff when there are no games.
func EloInterval(k, n int) (diff, lo, hi float64) {
	l, h := Wilson(k, n)
	if n > 0 {
		diff = EloDiff(float64(k) / float64(n))
	}
	return diff, EloDiff(l), EloDiff(h)
}

// Mean is a sample's mean with its standard error and 95% interval; as
// JSON, the mean and the interval.
type Mean struct {
	N    int     `json:"-"`
	Mean float64 `json:"mean"`
	SE   float64 `json:"-"`      // standard error of the mean (sample standard deviation / √N)
	Lo   float64 `json:"low95"`  // Mean − t·SE, t the 97.5% quantile of Student's t with N−1 degrees of freedom
	Hi   float64 `json:"high95"` // Mean + t·SE
}

// Half is the half-width of the interval.
func (m Mean) Half() float64 { return m.Hi - m.Mean }

// MeanCI is the mean of xs with its 95% interval, for a sample such as
// shots per game or, for paired comparisons (the same fleets, the same
// deals, the two legs of a match), the per-pair differences. With fewer
// than two values the spread is unknown and the interval is the mean
// itself; with none everything is zero.
func MeanCI[T ~int | ~int64 | ~float64](xs []T) Mean {
	m := Mean{N: len(xs)}
	if m.N == 0 {
		return m
	}
	for _, x := range xs {
		m.Mean += float64(x)
	}
	n := float64(m.N)
	m.Mean /= n
	m.Lo, m.Hi = m.Mean, m.Mean
	if m.N < 2 {
		return m
	}
	ss := 0.0
	for _, x := range xs {
		d := float64(x) - m.Mean
		ss += d * d
	}
	m.SE = math.Sqrt(ss / (n - 1) / n)
	half := t975(m.N-1) * m.SE
	m.Lo, m.Hi = m.Mean-half, m.Mean+half
	return m
}

// t975small are Student's t 97.5% quantiles for 1..30 degrees of freedom.
var t975small = [...]float64{
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
	2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
	2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
}

// t975 is Student's t 97.5% quantile for df degrees of freedom: a table up
// to 30, above that the Cornish–Fisher expansion around Z95 (Abramowitz &
// Stegun 26.7.5), within 1e-5 of the exact value there.
func t975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	if df <= len(t975small) {
		return t975small[df-1]
	}
	z, v := Z95, float64(df)
	z3, z5, z7, z9 := z*z*z, math.Pow(z, 5), math.Pow(z, 7), math.Pow(z, 9)
	return z + (z3+z)/(4*v) +
		(5*z5+16*z3+3*z)/(96*v*v) +
		(3*z7+19*z5+17*z3-15*z)/(384*v*v*v) +
		(79*z9+776*z7+1482*z5-1920*z3-945*z)/(92160*v*v*v*v)
}
