// Package bot is this program's Giretra player. A Bot plays one seat of one
// match: the server creates one per session and feeds it every request and
// notification of that seat; the referee and simulations run it in-process.
//
// Decisions are deterministic for a given sequence of calls (any
// randomness is seeded from a hash of the game state), cancellable through
// the context, and always one of the offered options, whatever happens.
//
// How it decides:
//   - Cut: a deterministic position in 6..26 (the deck is reshuffled every
//     deal, so the cut does not matter).
//   - Bids: a per-mode hand evaluation (guaranteed and probable tricks, card
//     points, trumps, in the manner of the engine's Eva) proposes an
//     action; then every offered action is turned into the contract it
//     would leave and played out by the heuristic on the same sampled deals
//     (search.Knowledge.Sample, hints from the bidding), weighing match
//     points and the match score; another action replaces the proposal only
//     when its gain beats the sampling noise.
//   - Cards: with 8 cards in hand, heuristic rollouts of every candidate
//     card on sampled deals; from 7 cards on, determinized search: sample
//     the hidden hands consistently with what play revealed, solve each
//     sample exactly (search.Solver), pick the card with the best average
//     utility (contract thresholds, sweeps, match score).
//   - Fast mode (Config.Fast): the heuristic alone (a few microseconds).
package bot

import (
	"context"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
)

// DefaultBudget is the per-decision time budget of the zero Config. The
// search is bounded by work (deterministic) first: on a core of its own
// its slowest decisions take about 55 ms (p99), under 100 ms at the very
// most (giretra-strength, one match at a time). The budget sits well
// above them, so it fires only on an overloaded or much slower machine,
// where it bounds latency at the cost of reproducibility. A budget inside
// that range would cut ordinary searches at load-dependent points, and
// replays would differ even on a quiet machine.
const DefaultBudget = 250 * time.Millisecond

// Config tunes a Bot. The zero value is valid: search with the default
// budget.
type Config struct {
	// Budget is the wall-clock time a decision may take before the search
	// stops and returns its best answer so far (0: DefaultBudget). Answers
	// cut short by it are not reproducible; the deterministic work limit
	// (Effort) normally stops the search well before. A deadline on the
	// decision's context, when earlier, stops it too (the server sets one
	// when it is overloaded).
	Budget time.Duration
	// Fast plays the heuristic only: no sampling, no solver. Microseconds
	// per decision; for simulations and under time pressure.
	Fast bool
	// Effort scales the deterministic work limit of the search (samples
	// and solver nodes); 0 means 1.0.
	Effort float64
	// BidEffort further scales the bid simulation's deals alone (0
	// means 1.0), to weigh bidding work apart from card-play work.
	BidEffort float64
	// Oracle shows the bot hands it cannot see, to measure what perfect
	// inference would be worth (giretra-strength's oracle players). Never
	// set in play.
	Oracle *Oracle
	// NoInference samples hidden hands from the rules alone, without
	// weighing them by the other seats' behaviour (for comparisons).
	NoInference bool
	// DoubleDummy searches every seat double-dummy, even those whose play
	// fits a known policy (trickPolicy; for comparisons).
	DoubleDummy bool
	// PlayoutModels lets the seats whose play fits a known policy play
	// that policy in the bid simulation's and the rollouts' playouts
	// (playoutModels). Off by default: measured no better (see
	// playoutmodels.go); kept for comparisons.
	PlayoutModels bool
	// FinishBids plays the rest of the negotiation in the bid simulation:
	// after each candidate action, on each sampled deal, the other seats
	// bid by the policy their behaviour mixture recognises, else by our
	// heuristic, and our seat by the heuristic, until three accepts; the
	// contract played out is the one that negotiation ends on
	// (finishNegotiation).
	FinishBids bool
	// Calibrated adds to each playout of the bid simulation how much
	// better its contract's class ends in real play than in heuristic
	// playouts (playoutBias).
	Calibrated bool
	// CalibratedOurs adds only our side's part of playoutBias: what the
	// bot's own play makes of its contracts beyond the heuristic playout,
	// measured more tightly than its defence's.
	CalibratedOurs bool
	// SimulateAll lets a finishing simulation weigh NoTrumps doubles and
	// redoubles too, which the heuristic otherwise decides alone.
	SimulateAll bool
	// LearnedBids proposes bids by the learned evaluator (bidmodel)
	// rather than the hand-written heuristic; the simulation then weighs
	// the other actions against that proposal as before, and the actions
	// it leaves to the proposal (NoTrumps doubles, redoubles) are the
	// evaluator's.
	LearnedBids bool
	// BidBlend, when positive, chooses among the simulated actions by
	// their simulated mean shrunk towards the learned evaluator's value,
	// the evaluator counting as this many simulated deals.
	BidBlend float64
	// PartnerLearned explains the partner's bids, where the behaviour
	// mixture weighs our own policy, by the learned evaluator rather than
	// the heuristic: a partner that is this bot bids by the evaluator
	// when LearnedBids or LearnedOnly is set.
	PartnerLearned bool
	// LearnedOnly bids by the learned evaluator alone, without the
	// simulation (for comparisons).
	LearnedOnly bool
	// BidEndgame, when positive, has our team's seats in the bid
	// simulation's playouts play the rest of each sampled deal exactly
	// (endgame) once they hold at most this many cards, as the bot's own
	// search plays them, rather than by the heuristic throughout.
	BidEndgame int
	// Edge is the match points a deal the bot expects its team to
	// outscore the other by: its decisions weigh the chance of winning
	// the match as a favourite by that much would (search.MatchScore.Edge;
	// 0: as an equal team).
	Edge int
	// LearnedAnnounce bids by the learned evaluator where its labels
	// hold (announcements, accepts) and leaves doubles and redoubles to
	// the simulation (announceLearned).
	LearnedAnnounce bool
	// LinearScore values deals by their points instead of by the chance of
	// winning the match (search.MatchScore.Linear; for comparisons).
	LinearScore bool
}

// Oracle reveals the true hands of a deal to a bot's sampling: the
// partner's, the opponents', the bot's own three cards still to come at
// bidding time, or any of them together.
type Oracle struct {
	// Deal returns the deal in play's hands, all eight cards of each seat.
	Deal                    func() (hands [4]giretra.Set, ok bool)
	Partner, Opponents, Own bool
	// BidOnly and PlayOnly limit the revelation to the bids or to the
	// card play, to split what perfect information is worth between them.
	BidOnly, PlayOnly bool
}

// deadline is when the decision in ctx must stop searching: the budget
// from now, or the context's deadline when that comes first.
func (b *Bot) deadline(ctx context.Context) time.Time {
	d := time.Now().Add(b.cfg.Budget)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		return cd
	}
	return d
}

// reveal fixes the hands the oracle shows in k, for a bid or a card: a
// revealed seat may hold exactly its true cards not yet played.
func (b *Bot) reveal(k *search.Knowledge, bidding bool) {
	o := b.cfg.Oracle
	if o == nil || o.Deal == nil || bidding && o.PlayOnly || !bidding && o.BidOnly {
		return
	}
	hands, ok := o.Deal()
	if !ok {
		return
	}
	for p := range giretra.Position(4) {
		switch {
		case p == k.Seat:
			if !o.Own {
				continue
			}
		case p == k.Seat.Partner():
			if !o.Partner {
				continue
			}
		default:
			if !o.Opponents {
				continue
			}
		}
		k.Excl[p] = giretra.FullDeck &^ (hands[p] &^ k.PlayedBy[p])
	}
}

// Bot is one seat's player. It is safe for concurrent use, though the
// engine calls one seat strictly in sequence.
type Bot struct {
	cfg Config

	mu sync.Mutex
	// contracts by deal index (len(match.Deals)), from negotiation-completed.
	contracts map[int]giretra.Contract
	// negs keeps the latest negotiation seen for a deal: from the
	// notification when sent, else from this seat's own bid requests.
	negs map[int]negRecord
	// bh models the other seats' play, learned from the deals that ended.
	bh behaviour
	// plays and steps are buffers for the cards and bids of the deal in
	// play.
	plays []play
	steps []bidStep
	// explain, when set, hears the values behind each searched card
	// (Explain).
	explain func(CardValues)
}

type negRecord struct {
	neg      giretra.Negotiation // own copy
	match    giretra.MatchState  // the match before the deal
	complete bool
}

// New returns a player for one seat of one match.
func New(cfg Config) *Bot {
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Effort <= 0 {
		cfg.Effort = 1
	}
	if cfg.BidEffort <= 0 {
		cfg.BidEffort = 1
	}
	return &Bot{cfg: cfg, contracts: make(map[int]giretra.Contract), negs: make(map[int]negRecord)}
}

// NewBot is New with the default Config.
func NewBot() *Bot { return New(Config{}) }

// ChooseCut always cuts in 6..26; the cut only rotates a random deck, so
// any deterministic choice is as good as another.
func (b *Bot) ChooseCut(_ context.Context, seat giretra.Position, match *giretra.MatchState) (giretra.Cut, error) {
	n := 0
	if match != nil {
		n = len(match.Deals) + match.Points[0] + match.Points[1]
	}
	return giretra.Cut{Position: 6 + (n*7+int(seat)*5)%21, FromTop: n%2 == 0}, nil
}

// ChooseAction bids: announce, accept, double or redouble from a hand
// evaluation per mode and the match situation. A panic in the strategy is
// recovered: the answer is then the fallback, with a *giretra.PanicError.
func (b *Bot) ChooseAction(ctx context.Context, v *giretra.BidView) (a giretra.Action, err error) {
	if v == nil || len(v.Valid) == 0 {
		return giretra.Action{Type: giretra.Accept}, errNoOption
	}
	defer func() {
		if r := recover(); r != nil {
			a, err = giretra.FallbackAction(v.Valid), giretra.NewPanicError(r)
		}
		a = matchAction(a, v.Valid)
	}()
	locked := v.Negotiation != nil && v.Match != nil
	if locked {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.rememberNeg(len(v.Match.Deals), v.Negotiation, v.Match, false)
		b.seat(v.Seat)
	}
	heur := chooseBid(v)
	if b.cfg.LearnedAnnounce && !b.cfg.Fast && len(v.Valid) > 1 {
		return b.announceLearned(ctx, v, heur, locked), nil
	}
	if (b.cfg.LearnedBids || b.cfg.LearnedOnly) && len(v.Valid) > 1 {
		heur = b.learnedBid(v, heur, locked)
		if b.cfg.LearnedOnly {
			return heur, nil
		}
	}
	if b.cfg.Fast || len(v.Valid) < 2 {
		return heur, nil
	}
	return b.simulateBid(ctx, v, heur), nil
}

// ChooseCard plays a card: by determinized search, or by the heuristic in
// fast mode, under time pressure, or when the search cannot run. A panic
// is recovered as in ChooseAction.
func (b *Bot) ChooseCard(ctx context.Context, v *giretra.PlayView) (c giretra.Card, err error) {
	if v == nil || v.Valid == 0 {
		return giretra.NoCard, errNoOption
	}
	valid := v.Valid
	defer func() {
		if r := recover(); r != nil {
			c, err = giretra.FallbackCard(valid), giretra.NewPanicError(r)
		}
		if c > 31 || !valid.Has(c) {
			c = giretra.FallbackCard(valid)
		}
	}()
	if valid.Count() == 1 || v.State == nil {
		return valid.First(), nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seat(v.Seat)
	ctr, neg := b.contractFor(v)
	pc := newPlayCtx(v, ctr, neg)
	if b.cfg.Fast {
		return pc.choose(), nil
	}
	return b.searchCard(ctx, v, pc), nil
}

// Notify records the contract of each deal (negotiation-completed) and,
// at deal-ended, scores the other seats' play for the behaviour models;
// the other events carry nothing the requests do not.
func (b *Bot) Notify(_ context.Context, seat giretra.Position, e *giretra.Event) (err error) {
	if e == nil || e.Match == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = giretra.NewPanicError(r)
		}
	}()
	if e.Kind == giretra.DealEnded && e.Hand != nil && len(e.Hand.Completed) == 8 && !b.cfg.NoInference {
		b.mu.Lock()
		defer b.mu.Unlock()
		d := len(e.Match.Deals) - 1
		r, okNeg := b.negs[d]
		ctr, okCtr := b.contracts[d]
		b.seat(seat)
		if okNeg && okCtr && ctr.Mode == e.Hand.Mode {
			log := dealLog{dealer: r.neg.Dealer, ctr: ctr, neg: &r.neg, match: &r.match}
			b.plays = playsOf(e.Hand, b.plays)
			log.plays = b.plays
			b.bh.learn(seat, &log)
		}
		return nil
	}
	if e.Kind == giretra.NegotiationCompleted && e.Negotiation != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		d := len(e.Match.Deals)
		b.rememberNeg(d, e.Negotiation, e.Match, true)
		if st, err := e.Negotiation.State(); err == nil {
			if c, ok := st.Contract(); ok {
				b.contracts[d] = c
			}
		}
	}
	return nil
}

// seat notes the seat this bot plays (the caller holds b.mu): with
// PartnerLearned, its partner's bids are explained by the evaluator.
func (b *Bot) seat(s giretra.Position) {
	b.bh.learnedSeats = 0
	if b.cfg.PartnerLearned {
		b.bh.learnedSeats = 1 << s.Partner()
		b.bh.ownLearned = b.priorLearnedBid
	}
}

// rememberNeg keeps a copy of the negotiation of deal d and forgets old
// deals so memory stays bounded. Caller holds mu.
func (b *Bot) rememberNeg(d int, n *giretra.Negotiation, m *giretra.MatchState, complete bool) {
	if old, ok := b.negs[d]; ok && old.complete && !complete {
		return
	}
	r := negRecord{neg: giretra.Negotiation{Dealer: n.Dealer, Actions: append([]giretra.Action(nil), n.Actions...)}, complete: complete}
	r.match = *m
	r.match.Deals = nil // the scores are what the bids depended on
	b.negs[d] = r
	// Older deals are done; later ones can only be left from an earlier
	// match (a Bot reused across matches).
	for k := range b.negs {
		if k < d-1 || k > d {
			delete(b.negs, k)
		}
	}
	for k := range b.contracts {
		if k < d-1 || k > d {
			delete(b.contracts, k)
		}
	}
}

// contractFor works out the contract of the deal in play: from the
// negotiation-completed event; else from the last negotiation this seat saw
// in its own bid requests; else the worst case (an opponent announced it,
// undoubled). Caller holds mu.
func (b *Bot) contractFor(v *giretra.PlayView) (giretra.Contract, *giretra.Negotiation) {
	mode := v.State.Mode
	d := 0
	if v.Match != nil {
		d = len(v.Match.Deals)
	}
	var neg *giretra.Negotiation
	if r, ok := b.negs[d]; ok {
		neg = &r.neg
	}
	if c, ok := b.contracts[d]; ok && c.Mode == mode {
		return c, neg
	}
	if neg != nil {
		if st, err := neg.State(); err == nil {
			if c, ok := st.Contract(); ok && c.Mode == mode {
				return c, neg
			}
			if mode <= giretra.AllTrumps && st.AnnounceIndex[mode] >= 0 {
				c := giretra.Contract{Mode: mode, Announcer: st.AnnouncedBy[mode]}
				if st.DoubleIndex[mode] >= 0 {
					c.Multiplier = giretra.Doubled
					if st.Redoubled[mode] {
						c.Multiplier = giretra.Redoubled
					}
				}
				return c, neg
			}
		}
	}
	return giretra.Contract{Mode: mode, Announcer: v.Seat.Next()}, neg
}

// matchAction returns the offered option equal to a, or the fallback.
func matchAction(a giretra.Action, valid []giretra.Action) giretra.Action {
	if o, ok := giretra.Offered(a, valid); ok {
		return o
	}
	return giretra.FallbackAction(valid)
}

type botError string

func (e botError) Error() string { return string(e) }

const errNoOption = botError("no option offered")

// stateSeed hashes the visible state into a sampler seed: FNV-1a over the
// parts' bytes, stable across runs and processes.
func stateSeed(parts ...uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, p := range parts {
		for i := range 8 {
			h ^= (p >> (8 * i)) & 0xFF
			h *= 1099511628211
		}
	}
	return h
}
