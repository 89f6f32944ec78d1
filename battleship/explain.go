package battleship

import "math/rand/v2"

// ShotMap is what the shooter saw when it chose a shot: the weight it gave
// every cell. People read it after a game to see why the bot shot where it
// did; nothing in play uses it.
type ShotMap struct {
	// X, Y is the cell shot.
	X, Y int
	// P is, for every cell (y*W+x), the probability that a ship covers it
	// as the shooter weighed it: the posterior over the fleets consistent
	// with the history, the opponent prior applied. Cells already shot are
	// 0. In a fallback (Fallback) it is the fallback's placement density
	// scaled to 1 at its largest cell, without the fallback's bonus for
	// cells next to unexplained hits.
	P []float64
	// Best is the largest P among the cells not shot yet.
	Best float64
	// Hunting is set when no ship was known to be hit and afloat: the shot
	// was then drawn among the cells within Spread of Best, so that the
	// opening is not the same every game. Otherwise it is a cell of Best.
	Hunting bool
	Spread  float64
	// Fallback is set when no fleet consistent with the history was found
	// (an inconsistent history, or the search budget spent before the
	// first explanation).
	Fallback bool
	// Explanations is the number of ways of covering the hit cells with
	// ships that the posterior summed over.
	Explanations int
}

// Explain returns the map behind the shot PlayTurn chooses for the same
// opponent, rules, history (yours) and seed: the same computation with the
// same random numbers and the same prior, so the cell it names is the cell
// PlayTurn shot, provided the bot's memory of this opponent has not
// changed in between (call it right after PlayTurn, before the bot plays
// the same opponent again). It changes nothing in the bot. Rules that
// Check refuses get the zero ShotMap.
func (b *Bot) Explain(opponent string, r Rules, yours []Strike, seed uint64) ShotMap {
	if r.Check() != nil {
		return ShotMap{}
	}
	key := statsKey(opponent, r)
	opt := b.opt.Target
	if opt.Spread < 0 {
		opt.Spread = 0
	}
	opt.Prior = b.mem.prior(key, r, nil)
	// PlayTurn's generator: the game's seed and the hash of the history.
	return ExplainShot(r, yours, rand.New(rand.NewPCG(seed, historyHash(key, seed, yours))), opt)
}

// ExplainShot is NextShot with the map behind its answer: the cell it
// returns is the cell NextShot returns for the same arguments and the
// same state of rng.
func ExplainShot(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) ShotMap {
	if r.W < 1 || r.H < 1 || r.W > MaxSide || r.H > MaxSide {
		return ShotMap{} // NextShot's 0,0
	}
	// A targeter of its own: the map is copied out of it, and the pool's
	// are left to the hot path.
	t := new(targeter)
	t.analyze(r, shots, rng, opt)
	t.applyPrior(opt.Prior)
	c := t.choose(rng)
	m := ShotMap{X: c % r.W, Y: c / r.W, P: make([]float64, r.Cells()), Hunting: t.hunting && !t.fellBack,
		Fallback: t.fellBack, Explanations: t.covers}
	if m.Hunting {
		m.Spread = t.spread
	}
	scale := 0.0
	switch {
	case t.fellBack:
		for _, f := range t.free {
			scale = max(scale, t.acc[f])
		}
		if scale > 0 {
			scale = 1 / scale
		}
	case t.sumW > 0:
		scale = 1 / t.sumW
	}
	for _, f := range t.free {
		p := min(1, max(0, t.acc[f]*scale))
		m.P[f] = p
		m.Best = max(m.Best, p)
	}
	return m
}
