package battleship

import "math/rand/v2"

// probabilities returns, for every cell, the probability that a ship
// covers it given the history (shot cells are 0), as NextShot computes it.
// nil if no consistent configuration was found.
func probabilities(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) []float64 {
	t := targeterPool.Get().(*targeter)
	defer targeterPool.Put(t)
	t.analyze(r, shots, rng, opt)
	if t.covers == 0 || !(t.sumW > 0) {
		return nil
	}
	out := make([]float64, r.Cells())
	for _, c := range t.free {
		out[c] = t.acc[c] / t.sumW
	}
	return out
}
