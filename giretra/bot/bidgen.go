package bot

import (
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bidmodel"
	"github.com/botarena/gamebot/giretra/search"
)

// Bid decisions valued on the true deal, the data a learned bid evaluator
// is fitted on. A deal is dealt and bid at a table whose seats each bid
// by one of the policies the behaviour model knows (Eva, Calculating, our
// heuristic), with an occasional random offered option so that rare
// situations are seen too. At every decision with a choice, each offered
// action is forked: the negotiation is finished from it as
// finishNegotiation does (the deciding seat by our heuristic, the others
// by their table policies), the deal is played out with all eight cards
// of every hand as dealt (by the heuristic, or as BidGenOptions say), and
// the action is valued for the deciding seat's team as the bid
// simulation values a playout.

// BidDecision is one bid decision of a generated deal: what the deciding
// seat saw, and the value of each offered action on the true deal.
type BidDecision struct {
	Seat  giretra.Position
	Hand  giretra.Set // its five cards
	Neg   giretra.Negotiation
	Match giretra.MatchState // target and points; no deals
	Valid []giretra.Action
	// Kinds is the policy each seat bids (and, with CardModels, plays) by
	// at the table: 0 Eva, 1 Calculating, 2 our heuristic (the order of
	// the behaviour mixture's weights).
	Kinds [4]uint8
	// Value is, for each action of Valid, the deciding team's result of
	// the finished negotiation and playout (search.MatchScore.DealValue).
	Value []float64
}

// BidGenOptions shape the generated deals.
type BidGenOptions struct {
	// Explore is the chance a seat on the negotiation's path takes a
	// random offered option instead of its policy's.
	Explore float64 `json:"explore"`
	// Long is the chance a deal is of a match to 500 instead of 151.
	Long float64 `json:"long"`
	// CardModels has the seats bidding as Eva or Calculating play their
	// cards as that agent does in the playouts that value the actions
	// (the others play our heuristic).
	CardModels bool `json:"cardModels,omitempty"`
	// SolveFrom, when positive, has the seats of our heuristic's kind (the
	// deciding seat among them) play the rest of each playout exactly, by
	// the solver on the true deal, once they hold at most this many
	// cards: the bot's own play searches from seven cards (endgame).
	SolveFrom int `json:"solveFrom,omitempty"`
	// Calibrated raises each value by playoutBias for the contract its
	// negotiation finished on: what the bot's real play makes of that
	// class beyond the heuristic playout.
	Calibrated bool `json:"calibrated,omitempty"`
	// Learned, when set, bids for the seats of our heuristic's kind, the
	// deciding seat's later bids included (a later round of the data,
	// made with the model the previous round fitted); LearnedDigest names
	// it in the data's header.
	Learned       *bidmodel.Model `json:"-"`
	LearnedDigest string          `json:"learned,omitempty"`
}

// GenBidDeal deals one deal from rng and returns its bid decisions.
func GenBidDeal(rng *rand.Rand, opt BidGenOptions) []BidDecision {
	d := giretra.Shuffle(rng)
	var five, full [4]giretra.Set
	for p := range 4 {
		for i := range 5 {
			five[p] |= d[5*p+i].Bit()
		}
		full[p] = five[p]
		for i := range 3 {
			full[p] |= d[20+3*p+i].Bit()
		}
	}
	dealer := giretra.Position(rng.IntN(4))
	target := 151
	if rng.Float64() < opt.Long {
		target = 500
	}
	match := giretra.NewMatchState(target, dealer)
	// Scores spread over the match, a little less towards its end, where
	// a deal seldom starts without one team having won.
	for t := range 2 {
		match.Points[t] = int(float64(target) * 0.95 * rng.Float64() * rng.Float64() * 1.6)
		match.Points[t] = min(match.Points[t], target-1)
	}
	table := bidders{learned: opt.Learned}
	var kinds [4]uint8
	for p := range 4 {
		table.kind[p] = [3]int{modelEva, modelCalc, modelOwn}[rng.IntN(3)]
		kinds[p] = uint8(table.kind[p])
	}
	var out []BidDecision
	buf := make([]giretra.Action, 0, maxFinishSteps+1)
	var eg *endgame
	if opt.SolveFrom > 0 {
		eg = &endgame{from: opt.SolveFrom, s: search.Acquire()}
		defer search.Release(eg.s)
	}
	negotiate(giretra.Negotiation{Dealer: dealer}, giretra.NewBidding(dealer), func(p giretra.Position, valid []giretra.Action, neg *giretra.Negotiation, st *giretra.Bidding) giretra.Action {
		dec := BidDecision{Seat: p, Hand: five[p], Match: match, Kinds: kinds,
			Neg:   giretra.Negotiation{Dealer: dealer, Actions: append([]giretra.Action(nil), neg.Actions...)},
			Valid: valid, Value: make([]float64, len(valid))}
		fork := table
		fork.kind[p] = modelOwn
		team := p.Team()
		ms := search.MatchScore{Ours: match.Points[team], Theirs: match.Points[team.Other()], Target: target}
		for i, act := range valid {
			nb := *st
			if nb.Apply(len(neg.Actions), act) != nil {
				continue
			}
			start := giretra.Negotiation{Dealer: dealer, Actions: append(append(buf[:0], neg.Actions...), act)}
			ctr, fneg := fork.finishNegotiation(start, nb, &five, &match)
			var sm *seatModels
			if opt.CardModels {
				sm = cardModels(&fork, &match, &fneg)
			}
			if eg != nil {
				eg.seats = fork.ownSeats()
			}
			dec.Value[i] = playOut(full, ctr, dealer, &fneg, team, ms, sm, eg, &match)
			if opt.Calibrated {
				dec.Value[i] += calibration(ctr, team)
			}
		}
		out = append(out, dec)
		if rng.Float64() < opt.Explore {
			return valid[rng.IntN(len(valid))]
		}
		v := giretra.BidView{Seat: p, Hand: five[p], Negotiation: neg, Match: &match, Valid: valid}
		return table.choose(p, &v)
	})
	return out
}

// cardModels are the seats of bs that bid as an agent, playing as it
// does, told that the deal started and its negotiation ended as neg.
func cardModels(bs *bidders, match *giretra.MatchState, neg *giretra.Negotiation) *seatModels {
	var sm seatModels
	for p := range giretra.Position(4) {
		if k := bs.kind[p]; k == modelEva || k == modelCalc {
			sm.seats |= 1 << p
			sm.kind[p] = k
		}
	}
	if sm.seats == 0 {
		return nil
	}
	sm.start(match, neg)
	return &sm
}

// ownSeats are the seats of bs that bid as our heuristic does, a bit per
// seat.
func (bs *bidders) ownSeats() uint8 {
	var seats uint8
	for p := range giretra.Position(4) {
		if bs.kind[p] == modelOwn {
			seats |= 1 << p
		}
	}
	return seats
}

// HeuristicBid is the heuristic bidder's choice in v (one of v.Valid):
// the proposal the bid simulation starts from, for comparisons.
func HeuristicBid(v *giretra.BidView) giretra.Action { return chooseBid(v) }

// PlayoutOptions say how the seats of a playout (Playout) play: by
// default all of them by our heuristic.
type PlayoutOptions struct {
	// Eva is the seats, a bit per seat, that play as the Eva agent does.
	Eva uint8
	// Solve is the seats that play the rest of the deal exactly, by the
	// solver on the true hands, once they hold at most SolveFrom cards.
	Solve     uint8
	SolveFrom int
}

// Playout is the value for team of the deal whose eight-card hands are
// hands, played to its end under contract c after negotiation neg as opt
// says, as the bid simulation values a playout (match points won minus
// lost, valued for the match score ms).
func Playout(hands [4]giretra.Set, c giretra.Contract, neg *giretra.Negotiation, team giretra.Team, ms search.MatchScore, match *giretra.MatchState, opt PlayoutOptions) float64 {
	var sm *seatModels
	if opt.Eva != 0 {
		sm = &seatModels{seats: opt.Eva}
		for p := range 4 {
			sm.kind[p] = modelEva
		}
		sm.start(match, neg)
	}
	var eg *endgame
	if opt.Solve != 0 && opt.SolveFrom > 0 {
		eg = &endgame{seats: opt.Solve, from: opt.SolveFrom, s: search.Acquire()}
		defer search.Release(eg.s)
	}
	return playOut(hands, c, neg.Dealer, neg, team, ms, sm, eg, match)
}

// RealValue is what a deal that scored ours and theirs match points, a
// Colour sweep of the team sweeper (when swept) included, is worth to
// team as the bid simulation values a playout.
func RealValue(c giretra.Contract, ours, theirs int, swept bool, sweeper, team giretra.Team, ms search.MatchScore) float64 {
	if swept {
		if sweeper == team {
			ours += sweepValue * c.Multiplier.Factor()
		} else {
			theirs += sweepValue * c.Multiplier.Factor()
		}
	}
	return ms.DealValue(ours, theirs)
}
