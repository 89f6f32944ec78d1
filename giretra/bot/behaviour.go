package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/search"
)

// Inference from behaviour. The sampler deals the hidden cards uniformly
// among the hands the rules allow; but players follow habits, and a hand
// under which a seat's plays this deal make sense is likelier than one
// under which they do not. Each other seat is modelled as a mixture of
// known card policies — the engine's agents (Eva, Calculating), this
// bot's own heuristic, and uniformly random play — with the mixture's
// weights learned over the match from what the seat actually played
// (every deal's cards are known once it ends). A sampled deal is then
// weighted by how likely each seat's plays so far are under its mixture.
//
// Weights are soft: a policy explains a play with probability 1−ε for its
// own choice and ε shared by every legal card, so a seat unlike every
// model costs the search only precision, never a world.

const (
	modelEva = iota
	modelCalc
	modelOwn
	modelRandom
	nModels
)

// modelEps is the chance a policy's player plays another card than the
// policy's (spread over the legal cards).
const modelEps = 0.15

// modelPrior is the mixture before any deal is seen: every policy
// plausible, random least.
var modelPrior = [nModels]float64{0.3, 0.2, 0.35, 0.15}

// mixTemper tempers the evidence (the policies are approximations, and a
// seat may change its style): log-likelihoods count at this fraction.
const mixTemper = 0.5

// mixFloor keeps every policy a little weight.
const mixFloor = 0.02

// play is one card of a deal, in order.
type play struct {
	p giretra.Position
	c giretra.Card
}

// dealLog is what a replay of a deal needs.
type dealLog struct {
	dealer giretra.Position
	ctr    giretra.Contract
	neg    *giretra.Negotiation
	match  *giretra.MatchState
	plays  []play
}

// plays lists the cards of hs in the order they were played.
func playsOf(hs *giretra.HandState, buf []play) []play {
	buf = buf[:0]
	add := func(t *giretra.Trick) {
		for i := range int(t.N) {
			buf = append(buf, play{t.PlayerAt(i), t.Cards[i]})
		}
	}
	for i := range hs.Completed {
		add(&hs.Completed[i])
	}
	add(&hs.Current)
	return buf
}

// behaviour is one bot's model of the three other seats.
type behaviour struct {
	logLik [4][nModels]float64 // by seat: evidence so far this match
	deals  [4]int              // deals scored per seat
	// The agents' bidders, asked what they would have bid (they keep no
	// state between bids but the seat).
	eva  *agents.Eva
	calc *agents.Calculating
	memo map[uint64]float64 // evidence.memo's storage, reused
	// bidMemo is evidence.bidMemo's storage, kept while bidFP, the
	// fingerprint of the bids and the match score it was made for, holds.
	bidMemo map[uint64]float64
	bidFP   uint64
	// learnedSeats are the seats (a bit each) whose bids our own model
	// explains by the learned evaluator rather than the heuristic: the
	// partner, when this bot bids by the evaluator, since a partner that
	// is this bot does too.
	learnedSeats uint8
	// ownLearned is the evaluator's choice for such a seat (the bot's
	// priorLearnedBid).
	ownLearned func(*giretra.BidView) giretra.Action
}

// mixture is seat p's current mixture of policies.
func (bh *behaviour) mixture(p giretra.Position) [nModels]float64 {
	var w [nModels]float64
	best := math.Inf(-1)
	for m := range nModels {
		best = max(best, mixTemper*bh.logLik[p][m])
	}
	sum := 0.0
	for m := range nModels {
		w[m] = modelPrior[m] * math.Exp(mixTemper*bh.logLik[p][m]-best)
		sum += w[m]
	}
	for m := range nModels {
		w[m] = max(w[m]/sum, mixFloor)
	}
	return w
}

// learnSubsets is how many of a finished deal's possible first-five
// hands are averaged to score a seat's bids (which five cards it held when
// it bid is never shown).
const learnSubsets = 8

// learn scores every policy on every other seat's bids and plays of a
// finished deal, whose hands are known now (each seat held what it
// played).
func (bh *behaviour) learn(self giretra.Position, d *dealLog) {
	var hands [4]giretra.Set
	for _, x := range d.plays {
		hands[x.p] |= x.c.Bit()
	}
	steps := bidStepsOf(self, d.neg, nil)
	rng := rand.New(rand.NewPCG(uint64(hands[0])^uint64(hands[1])<<32, uint64(len(d.plays))))
	for p := range giretra.Position(4) {
		if p == self || hands[p].Count() != 8 {
			continue
		}
		var five [learnSubsets]giretra.Set
		for i := range five {
			five[i] = firstFive(hands[p], rng)
		}
		for m := range nModels {
			ll := replay(m, p, hands[p], d)
			if hasBids(steps, p) {
				sum := 0.0
				for _, h5 := range five {
					sum += math.Exp(bh.bidLogLik(m, p, h5, steps, d.match))
				}
				ll += math.Log(sum / learnSubsets)
			}
			bh.logLik[p][m] += ll
		}
		bh.deals[p]++
	}
}

// evidence is what the other seats did in the deal so far: their bids
// and their plays, and the seat models that explain them.
type evidence struct {
	self     giretra.Position
	d        *dealLog // plays so far; nil in the bidding
	playedBy [4]giretra.Set
	bids     []bidStep
	match    *giretra.MatchState
	mix      [4][nModels]float64
	// memo, when not nil, holds the log-likelihoods computed for this
	// evidence, by model, seat and hand: late in a deal a seat's unseen
	// cards are few, and many candidate deals give it the same hand.
	memo map[uint64]float64
	// bidMemo, when not nil, holds the bids' log-likelihoods: they
	// depend only on the bids and the match score, the same for every
	// decision of a deal once the bidding is over, so it is kept across
	// them (behaviour.bidMemo).
	bidMemo map[uint64]float64
}

// memoKey keys a log-likelihood in evidence.memo: kind 1 for a replay of
// the plays from an eight-card hand, 2 for the bids from a five-card one.
func memoKey(kind, m int, p giretra.Position, hand giretra.Set) uint64 {
	return uint64(hand) | uint64(p)<<32 | uint64(m)<<34 | uint64(kind)<<40
}

// memoized returns the memo's value for key, computing it with f first.
func (ev *evidence) memoized(key uint64, f func() float64) float64 {
	memo := ev.memo
	if key>>40 == 2 && ev.bidMemo != nil {
		memo = ev.bidMemo
	}
	if memo == nil {
		return f()
	}
	if v, ok := memo[key]; ok {
		return v
	}
	v := f()
	memo[key] = v
	return v
}

// bidMemoFor returns the map that keeps the bids' log-likelihoods for
// ev's bids and match score, emptied when they changed since the last
// decision.
func (bh *behaviour) bidMemoFor(ev *evidence) map[uint64]float64 {
	parts := []uint64{uint64(ev.self), uint64(len(ev.bids))}
	if ev.match != nil {
		parts = append(parts, uint64(len(ev.match.Deals)), uint64(ev.match.Points[0]), uint64(ev.match.Points[1]), uint64(ev.match.TargetScore))
	}
	for i := range ev.bids {
		s := &ev.bids[i]
		parts = append(parts, uint64(len(s.neg.Actions)), uint64(s.neg.Dealer), uint64(s.did.Type)<<16|uint64(s.did.Player)<<8|uint64(s.did.Mode))
	}
	fp := stateSeed(parts...)
	if bh.bidMemo == nil || fp != bh.bidFP {
		if bh.bidMemo == nil {
			bh.bidMemo = make(map[uint64]float64)
		}
		clear(bh.bidMemo)
		bh.bidFP = fp
	}
	return bh.bidMemo
}

// any reports whether the evidence can tell deals apart.
func (ev *evidence) any() bool {
	for p := range giretra.Position(4) {
		if p != ev.self && (ev.playedBy[p] != 0 || hasBids(ev.bids, p)) {
			return true
		}
	}
	return false
}

// bidSubsets is how many first-five hands are averaged per sampled deal
// when scoring bids.
const bidSubsets = 2

// weight is how well the sampled deal hands (the cards still held)
// explains every other seat's bids and plays so far, under its mixture.
func (bh *behaviour) weight(ev *evidence, hands *[4]giretra.Set, rng *rand.Rand) float64 {
	w := 1.0
	for p := range giretra.Position(4) {
		bids := hasBids(ev.bids, p)
		if p == ev.self || (ev.playedBy[p] == 0 && !bids) {
			continue
		}
		hand8 := hands[p] | ev.playedBy[p]
		var five [bidSubsets]giretra.Set
		if bids {
			for i := range five {
				five[i] = firstFive(hand8, rng)
			}
		}
		l := 0.0
		for m := range nModels {
			if ev.mix[p][m] <= mixFloor {
				continue
			}
			lm := 1.0
			if ev.playedBy[p] != 0 {
				lm = math.Exp(ev.memoized(memoKey(1, m, p, hand8), func() float64 { return replay(m, p, hand8, ev.d) }))
			}
			if bids && lm > 0 {
				sum := 0.0
				for _, h5 := range five {
					sum += math.Exp(ev.memoized(memoKey(2, m, p, h5), func() float64 { return bh.bidLogLik(m, p, h5, ev.bids, ev.match) }))
				}
				lm *= sum / bidSubsets
			}
			l += ev.mix[p][m] * lm
		}
		w *= l
	}
	return w
}

// firstFive draws which five of a seat's eight cards it was dealt before
// the bidding (a uniformly random five: the deal does not favour any).
func firstFive(hand8 giretra.Set, rng *rand.Rand) giretra.Set {
	var cs [8]giretra.Card
	n := 0
	for c := range hand8.All() {
		if n == 8 {
			break
		}
		cs[n] = c
		n++
	}
	if n <= 5 {
		return hand8
	}
	var h giretra.Set
	for i := range 5 {
		j := i + rng.IntN(n-i)
		cs[i], cs[j] = cs[j], cs[i]
		h |= cs[i].Bit()
	}
	return h
}

// bidStep is one bid another seat chose: the negotiation before it, the
// options it had and its choice.
type bidStep struct {
	neg   giretra.Negotiation
	valid []giretra.Action
	did   giretra.Action
}

// bidStepsOf lists the bids in neg of the seats other than self that had
// a choice (more than one option), appended to buf.
func bidStepsOf(self giretra.Position, neg *giretra.Negotiation, buf []bidStep) []bidStep {
	buf = buf[:0]
	if neg == nil {
		return buf
	}
	st := giretra.NewBidding(neg.Dealer)
	for i, a := range neg.Actions {
		valid := st.ValidActions(neg.Actions[:i])
		if a.Player != self && len(valid) > 1 {
			buf = append(buf, bidStep{neg: giretra.Negotiation{Dealer: neg.Dealer, Actions: neg.Actions[:i]}, valid: valid, did: a})
		}
		if st.Apply(i, a) != nil {
			break
		}
	}
	return buf
}

func hasBids(steps []bidStep, p giretra.Position) bool {
	for i := range steps {
		if steps[i].did.Player == p {
			return true
		}
	}
	return false
}

// bidLogLik is the log-likelihood of seat p's bids under policy m, p
// holding hand5 when it bid.
func (bh *behaviour) bidLogLik(m int, p giretra.Position, hand5 giretra.Set, steps []bidStep, match *giretra.MatchState) float64 {
	ll := 0.0
	for i := range steps {
		s := &steps[i]
		if s.did.Player != p {
			continue
		}
		n := float64(len(s.valid))
		prob := 1 / n
		if m != modelRandom {
			v := giretra.BidView{Seat: p, Hand: hand5, Negotiation: &s.neg, Match: match, Valid: s.valid}
			var choice giretra.Action
			switch m {
			case modelEva:
				if bh.eva == nil {
					bh.eva = agents.NewEva()
				}
				choice, _ = bh.eva.ChooseAction(context.Background(), &v)
			case modelCalc:
				if bh.calc == nil {
					bh.calc = newCalculatingModel()
				}
				choice, _ = bh.calc.ChooseAction(context.Background(), &v)
			default:
				if bh.learnedSeats&(1<<p) != 0 {
					choice = bh.ownLearned(&v)
				} else {
					choice = chooseBid(&v)
				}
			}
			prob = modelEps / n
			if choice.SameChoice(s.did) {
				prob += 1 - modelEps
			}
		}
		ll += math.Log(prob)
	}
	return ll
}

// newCalculatingModel is Calculating as a model of a seat. Its generator
// drives only its cuts, which a replay or a playout never asks for: it
// has none, so no session's goroutines share one.
func newCalculatingModel() *agents.Calculating { return agents.NewCalculating(nil) }

// replay plays d's cards back with seat p holding hand8 at the start and
// returns the log-likelihood of p's plays under policy m. A play the hand
// cannot have made (an illegal card) makes the hand impossible.
func replay(m int, p giretra.Position, hand8 giretra.Set, d *dealLog) float64 {
	var pl giretra.Player
	switch m {
	case modelEva:
		pl = agents.NewEva()
	case modelCalc:
		pl = newCalculatingModel()
	}
	ctx := context.Background()
	if pl != nil {
		_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.DealStarted, Match: d.match})
		if d.neg != nil {
			_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.NegotiationCompleted, Negotiation: d.neg, Match: d.match})
		}
	}
	h := giretra.HandState{Mode: d.ctr.Mode, Current: giretra.NewTrick(d.dealer.Next())}
	var trickBuf [8]giretra.Trick
	h.Completed = trickBuf[:0]
	hand := hand8
	ll := 0.0
	for _, x := range d.plays {
		if x.p == p {
			valid := giretra.LegalPlays(hand, &h.Current, h.Mode)
			if !valid.Has(x.c) {
				return math.Inf(-1)
			}
			n := float64(valid.Count())
			prob := 1 / n
			if m != modelRandom && n > 1 {
				v := giretra.PlayView{Seat: p, Hand: hand, State: &h, Match: d.match, Valid: valid}
				var choice giretra.Card
				if pl != nil {
					choice, _ = pl.ChooseCard(ctx, &v)
				} else {
					choice = heuristicCard(&v, d.ctr, d.neg)
				}
				prob = modelEps / n
				if choice == x.c {
					prob += 1 - modelEps
				}
			}
			ll += math.Log(prob)
			hand &^= x.c.Bit()
		}
		done := h.Play(x.c)
		if pl != nil {
			_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.CardPlayed, Player: x.p, Card: x.c, Hand: &h, Match: d.match})
			if done {
				last := h.Completed[len(h.Completed)-1]
				_ = pl.Notify(ctx, p, &giretra.Event{Kind: giretra.TrickCompleted, Trick: &last, Winner: last.Winner(h.Mode), Hand: &h, Match: d.match})
			}
		}
	}
	return ll
}

// resampler draws candidate deals from k, weighs each by behaviour, and
// serves deals resampled in proportion to their weights (systematic
// resampling), so that the solver's work goes to the likely deals.
type resampler struct {
	deals [][4]giretra.Set
	next  int
}

// candidatesPerDeal is how many candidate deals are weighed per deal
// served.
const candidatesPerDeal = 3

// newResampler draws up to n·candidatesPerDeal candidates and keeps n
// deals; it returns nil when the weights say nothing (no other seat has
// bid or played, or no candidate is possible), and the caller samples
// plainly. It stops drawing at the deadline (zero: none), which only an
// overloaded server's decisions reach: weighing is work done before the
// search, and it must not take the search's time. The caller holds b.mu.
func (b *Bot) newResampler(k *search.Knowledge, rng *rand.Rand, n int, ev *evidence, deadline time.Time) *resampler {
	for p := range giretra.Position(4) {
		ev.mix[p] = b.bh.mixture(p)
	}
	if !ev.any() || n <= 0 {
		return nil
	}
	if b.bh.memo == nil {
		b.bh.memo = make(map[uint64]float64)
	}
	clear(b.bh.memo)
	ev.memo = b.bh.memo
	ev.bidMemo = b.bh.bidMemoFor(ev)
	cands := make([][4]giretra.Set, 0, n*candidatesPerDeal)
	ws := make([]float64, 0, n*candidatesPerDeal)
	total := 0.0
	for i := range n * candidatesPerDeal {
		if i%8 == 7 && !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		var h [4]giretra.Set
		if !k.Sample(rng, &h) {
			break
		}
		w := b.bh.weight(ev, &h, rng)
		if w <= 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			continue
		}
		cands = append(cands, h)
		ws = append(ws, w)
		total += w
	}
	if len(cands) == 0 || total <= 0 {
		return nil
	}
	r := &resampler{deals: make([][4]giretra.Set, 0, n)}
	step := total / float64(n)
	u := rng.Float64() * step
	acc := 0.0
	i := 0
	for range n {
		for i < len(cands)-1 && acc+ws[i] < u {
			acc += ws[i]
			i++
		}
		r.deals = append(r.deals, cands[i])
		u += step
	}
	return r
}

// deal serves the next resampled deal.
func (r *resampler) deal(h *[4]giretra.Set) bool {
	if r.next >= len(r.deals) {
		return false
	}
	*h = r.deals[r.next]
	r.next++
	return true
}
