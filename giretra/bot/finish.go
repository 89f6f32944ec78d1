package bot

import (
	"context"
	"math/rand/v2"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bidmodel"
)

// Finishing the negotiation. Without it the bid simulation values each
// action by the contract the negotiation would leave if it stopped there;
// but an announcement can be outbid or doubled, and an accept leaves the
// next seats free to announce. With Config.FinishBids, each sampled deal
// plays the negotiation to its end after the candidate action: every
// seat bids on the five cards it holds in the sample, by the policy of
// its behaviour mixture when the mixture recognises one (Eva,
// Calculating), else by our heuristic, which also bids for our own seat
// and partner.

// maxFinishSteps bounds a finished negotiation: announcements only rise,
// and each mode is doubled and redoubled at most once, so real ones end
// well before.
const maxFinishSteps = 48

// bidders holds the policies a finish asks, one decision's own copies.
type bidders struct {
	kind [4]int // by seat: modelEva, modelCalc, or modelOwn (heuristic)
	eva  *agents.Eva
	calc *agents.Calculating
	// learned, when set, bids for the modelOwn seats instead of the
	// heuristic, told the others' true kinds as a sure mixture (data
	// generation's later rounds).
	learned *bidmodel.Model
}

// finishBidders returns the policy each seat bids by in a finish. The
// caller holds b.mu.
func (b *Bot) finishBidders(self giretra.Position) *bidders {
	bs := &bidders{}
	for p := range giretra.Position(4) {
		bs.kind[p] = modelOwn
		if p == self || b.cfg.NoInference {
			continue
		}
		if m, ok := b.recognised(p); ok {
			bs.kind[p] = m
		}
	}
	return bs
}

// choose is seat p's bid holding hand5 in v's situation.
func (bs *bidders) choose(p giretra.Position, v *giretra.BidView) giretra.Action {
	var a giretra.Action
	var err error
	switch bs.kind[p] {
	case modelEva:
		if bs.eva == nil {
			bs.eva = agents.NewEva()
		}
		a, err = bs.eva.ChooseAction(context.Background(), v)
	case modelCalc:
		if bs.calc == nil {
			bs.calc = newCalculatingModel()
		}
		a, err = bs.calc.ChooseAction(context.Background(), v)
	default:
		if bs.learned != nil {
			return bs.learnedChoice(p, v)
		}
		return chooseBid(v)
	}
	if o, ok := giretra.Offered(a, v.Valid); err == nil && ok {
		return o
	}
	return chooseBid(v)
}

// learnedChoice is bs.learned's choice for seat p in v.
func (bs *bidders) learnedChoice(p giretra.Position, v *giretra.BidView) giretra.Action {
	s, ok := bidmodel.NewSituation(v)
	if !ok {
		return chooseBid(v)
	}
	for i, q := range [3]giretra.Position{p.Partner(), p.Next(), p.Previous()} {
		s.Mix[i] = [4]float32{}
		s.Mix[i][bs.kind[q]] = 1
	}
	if a, ok := bestLearned(bs.learned, &s, v.Valid, false); ok {
		return a
	}
	return chooseBid(v)
}

// finishNegotiation plays neg (ending with the candidate action, st its
// state) to its end with the seats holding five[p], appending to neg's
// actions (the caller gives a buffer it owns), and returns the contract
// and the finished negotiation.
func (bs *bidders) finishNegotiation(neg giretra.Negotiation, st giretra.Bidding, five *[4]giretra.Set, match *giretra.MatchState) (giretra.Contract, giretra.Negotiation) {
	st, neg = negotiate(neg, st, func(p giretra.Position, valid []giretra.Action, neg *giretra.Negotiation, _ *giretra.Bidding) giretra.Action {
		v := giretra.BidView{Seat: p, Hand: five[p], Negotiation: neg, Match: match, Valid: valid}
		return bs.choose(p, &v)
	})
	c, _ := st.Contract()
	return c, neg
}

// negotiate plays neg (st its state) to its end, appending to neg's
// actions: choose picks each action of a seat with more than one option
// (it sees the negotiation and its state before the action); a seat with
// one takes it. It returns the final state and negotiation.
func negotiate(neg giretra.Negotiation, st giretra.Bidding, choose func(p giretra.Position, valid []giretra.Action, neg *giretra.Negotiation, st *giretra.Bidding) giretra.Action) (giretra.Bidding, giretra.Negotiation) {
	for step := 0; !st.Complete() && step < maxFinishSteps; step++ {
		p := st.CurrentPlayer
		valid := st.ValidActions(neg.Actions)
		if len(valid) == 0 {
			break
		}
		a := valid[0]
		if len(valid) > 1 {
			a = choose(p, valid, &neg, &st)
		}
		if st.Apply(len(neg.Actions), a) != nil {
			break
		}
		neg.Actions = append(neg.Actions, a)
	}
	return st, neg
}

// fivesOf draws the five cards each other seat of a sampled deal held
// when it bid (our own are known).
func fivesOf(hands *[4]giretra.Set, self giretra.Position, own giretra.Set, rng *rand.Rand) [4]giretra.Set {
	var five [4]giretra.Set
	for p := range giretra.Position(4) {
		if p == self {
			five[p] = own
			continue
		}
		five[p] = firstFive(hands[p], rng)
	}
	return five
}
