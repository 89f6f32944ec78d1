package stats

import (
	"cmp"
	"math"
)

// Quantile is the q-quantile (0 ≤ q ≤ 1) of sorted, a sample in ascending
// order, by the nearest-rank rule the Giretra engine's validation report
// uses: sorted[⌈q·n⌉ − 1], clamped to the sample. It is always one of the
// sample's values (the median of an even count is the lower middle one),
// so it applies to durations and counts as well as to reals. The zero T
// for an empty sample.
//
// Every percentile a command or report prints goes through it, so that two
// of them never disagree on a figure.
func Quantile[T cmp.Ordered](sorted []T, q float64) T {
	n := len(sorted)
	if n == 0 {
		var zero T
		return zero
	}
	i := int(math.Ceil(q*float64(n))) - 1
	return sorted[min(max(i, 0), n-1)]
}
