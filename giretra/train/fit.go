package train

import (
	"math"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bidmodel"
	"github.com/botarena/gamebot/giretra/bot"
)

// situation is d as the bidding seat saw it. Its belief of the others'
// play is their true policy, blended with the mixture before evidence
// by a share drawn from i (the decision's index): in play the mixture
// starts from the prior and grows sure of a seat as the match goes on.
func situation(d *bot.BidDecision, i int) (bidmodel.Situation, bool) {
	v := giretra.BidView{Seat: d.Seat, Hand: d.Hand, Negotiation: &d.Neg, Match: &d.Match, Valid: d.Valid}
	s, ok := bidmodel.NewSituation(&v)
	sure := float32(math.Mod(float64(i)*0.6180339887498949, 1))
	for j, p := range [3]giretra.Position{d.Seat.Partner(), d.Seat.Next(), d.Seat.Previous()} {
		for m := range s.Mix[j] {
			s.Mix[j][m] = (1 - sure) * bidmodel.PriorMix[m]
		}
		s.Mix[j][d.Kinds[p]] += sure
	}
	return s, ok
}

// Examples turns decisions into the evaluator's examples: one per offered
// action.
func Examples(decs []bot.BidDecision) *bidmodel.Examples {
	ex := &bidmodel.Examples{}
	var x [bidmodel.NumFeatures]float32
	for i := range decs {
		d := &decs[i]
		s, ok := situation(d, i)
		if !ok {
			continue
		}
		s.Context(x[:])
		for j, a := range d.Valid {
			if s.Action(x[:], a) {
				ex.Add(x[:], d.Value[j])
			}
		}
	}
	return ex
}

// Choices compares ways of choosing on held-out decisions: the mean value
// on the true deal of the action each picks, in match points.
type Choices struct {
	Decisions int
	Model     float64 // the model's best action
	Heuristic float64 // the bot's heuristic bidder's
	Best      float64 // the best action on the true deal (hindsight)
	Agree     float64 // share of decisions where model and heuristic agree
	RMSE      float64 // the model's error per action
}

// Compare measures m (nil: the heuristic only) on decs.
func Compare(m *bidmodel.Model, decs []bot.BidDecision) Choices {
	var c Choices
	var vals []float64
	sq, na := 0.0, 0
	for i := range decs {
		d := &decs[i]
		s, ok := situation(d, i)
		if !ok {
			continue
		}
		v := giretra.BidView{Seat: d.Seat, Hand: d.Hand, Negotiation: &d.Neg, Match: &d.Match, Valid: d.Valid}
		h := bot.HeuristicBid(&v)
		hi := 0
		for j, a := range d.Valid {
			if a.SameChoice(h) {
				hi = j
			}
		}
		mi := hi
		if m != nil {
			vals = m.Values(&s, d.Valid, vals)
			for j := range vals {
				if vals[j] > vals[mi] {
					mi = j
				}
				if !math.IsInf(vals[j], 0) {
					e := vals[j] - d.Value[j]
					sq += e * e
					na++
				}
			}
		}
		best := d.Value[0]
		for _, x := range d.Value {
			best = max(best, x)
		}
		c.Decisions++
		c.Model += d.Value[mi]
		c.Heuristic += d.Value[hi]
		c.Best += best
		if mi == hi {
			c.Agree++
		}
	}
	if n := float64(max(c.Decisions, 1)); c.Decisions > 0 {
		c.Model /= n
		c.Heuristic /= n
		c.Best /= n
		c.Agree /= n
	}
	if na > 0 {
		c.RMSE = math.Sqrt(sq / float64(na))
	}
	return c
}
