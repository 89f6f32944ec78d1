package agents

import (
	"cmp"
	"context"
	"slices"

	"github.com/botarena/gamebot/giretra"
)

// Eva is the engine's DeterministicPlayerAgent ("Eva"), the strongest
// built-in agent: guaranteed/probable trick counting for bids, card
// counting with void inference, partner signals and seat-aware play
// (docs/giretra.md §6). It uses no randomness.
//
// In the engine Eva reads the contract from the match state in-process;
// here it takes it from the negotiation-completed event, which in-process
// players always receive.
type Eva struct {
	seat giretra.Position

	played    giretra.Set // cards played this deal
	remaining giretra.Set // unplayed cards minus the own hand (once synced)

	knownVoids  [4]suits // by seat: did not follow (and, in Colour, did not trump)
	oppVoids    [4]suits // opponents' voids from completed tricks
	oppNoTrump  [4]bool  // opponents seen out of trumps
	preferred   suits    // partner's liked suits
	disliked    suits    // partner's discarded suits
	priority    suits    // partner's priority suits
	lastLead    giretra.Suit
	hasLastLead bool // deliberately not reset between deals, as in the engine

	// The trick in progress, from card-played notifications.
	leader, winner       giretra.Position
	leadSuit             giretra.Suit
	hasLeader, hasWinner bool

	// The deal's contract, from negotiation-completed.
	contract    giretra.Contract
	hasContract bool
}

// NewEva returns an Eva agent.
func NewEva() *Eva {
	e := &Eva{}
	e.resetDeal()
	return e
}

func (a *Eva) resetDeal() {
	a.played, a.remaining = 0, giretra.FullDeck
	a.knownVoids, a.oppVoids, a.oppNoTrump = [4]suits{}, [4]suits{}, [4]bool{}
	a.preferred, a.disliked, a.priority = 0, 0, 0
	a.hasLeader, a.hasWinner = false, false
	a.hasContract = false
}

func (a *Eva) team() giretra.Team { return a.seat.Team() }

// ChooseCut always cuts 16 from the top.
func (a *Eva) ChooseCut(_ context.Context, seat giretra.Position, _ *giretra.MatchState) (giretra.Cut, error) {
	a.seat = seat
	return giretra.Cut{Position: 16, FromTop: true}, nil
}

// ---- Notifications -------------------------------------------------------

// Notify keeps the card count, voids, partner signals and the contract.
func (a *Eva) Notify(_ context.Context, seat giretra.Position, e *giretra.Event) error {
	a.seat = seat
	switch e.Kind {
	case giretra.DealStarted:
		a.resetDeal()
	case giretra.NegotiationCompleted:
		if e.Negotiation != nil {
			a.negotiationCompleted(e.Negotiation)
		}
	case giretra.CardPlayed:
		if e.Hand != nil {
			a.cardPlayed(e.Player, e.Card, e.Hand)
		}
	case giretra.TrickCompleted:
		if e.Trick != nil && e.Hand != nil {
			a.trickCompleted(e.Trick, e.Hand)
		}
	}
	return nil
}

func (a *Eva) negotiationCompleted(n *giretra.Negotiation) {
	st, err := n.State()
	if err != nil {
		return
	}
	if c, ok := st.Contract(); ok {
		a.contract, a.hasContract = c, true
	}
	if st.CurrentBid == giretra.NoMode {
		return
	}
	// The partner's Colour announcements are preferred suits, except the
	// trump of the last bid (not of the contract: an engine detail kept).
	for _, x := range n.Actions {
		if x.Type != giretra.Announce || x.Player != a.seat.Partner() || !x.Mode.IsColour() {
			continue
		}
		if st.CurrentBid.IsColour() && st.CurrentBid.Trump() == x.Mode.Trump() {
			continue
		}
		a.preferred.add(x.Mode.Trump())
	}
}

func (a *Eva) cardPlayed(p giretra.Position, c giretra.Card, h *giretra.HandState) {
	a.played |= c.Bit()
	a.remaining &^= c.Bit()
	if h.Over {
		return // the engine's currentTrick is null after the last trick
	}
	// After a 4th card the current trick is already the next, empty one: the
	// engine's agent then sees no winner and infers as if alone (kept).
	t := &h.Current
	m := h.Mode
	if t.N == 1 {
		a.leader, a.hasLeader = p, true
		a.leadSuit = c.Suit()
		a.winner, a.hasWinner = p, true
		return
	}
	a.hasWinner = t.N > 0
	if a.hasWinner {
		a.winner = t.Winner(m)
	}
	a.inferVoids(p, c, t, m)
	if p == a.seat.Partner() && (!a.hasLeader || p != a.leader) && pts(c, m) >= 8 {
		if !a.hasWinner || a.winner.Team() != a.team() {
			a.disliked.add(c.Suit())
			a.preferred.del(c.Suit())
		}
	}
}

// inferVoids: not following means void in the led suit; in Colour, not
// trumping either means out of trumps unless the partner was winning with a
// side card.
func (a *Eva) inferVoids(p giretra.Position, c giretra.Card, t *giretra.Trick, m giretra.Mode) {
	if !a.hasLeader || p == a.leader || c.Suit() == a.leadSuit {
		return
	}
	a.knownVoids[p].add(a.leadSuit)
	ts, ok := trumpSuit(m)
	if !ok || c.Suit() == ts {
		return
	}
	if t.N >= 2 && a.hasWinner && a.winner.Team() == p.Team() && t.Cards[t.WinnerIndex(m)].Suit() != ts {
		return
	}
	a.knownVoids[p].add(ts)
}

func (a *Eva) trickCompleted(t *giretra.Trick, h *giretra.HandState) {
	m := h.Mode
	a.inferOpponentVoids(t, m)
	a.analyzePartner(t, h)
	// Both opponents void in a (non-trump) suit: the partner's priority.
	for su := range giretra.Suit(4) {
		if isTrumpSuit(su, m) {
			continue
		}
		if a.knownVoids[a.seat.Next()].has(su) && a.knownVoids[a.seat.Partner().Next()].has(su) {
			a.priority.add(su)
		}
	}
	a.hasLeader, a.hasWinner = false, false
}

func (a *Eva) inferOpponentVoids(t *giretra.Trick, m giretra.Mode) {
	if t.N < 2 {
		return
	}
	led := t.Led()
	ts, colour := trumpSuit(m)
	for i := 1; i < int(t.N); i++ {
		p, c := t.PlayerAt(i), t.Cards[i]
		if p.Team() == a.team() || c.Suit() == led {
			continue
		}
		a.oppVoids[p].add(led)
		if !colour || c.Suit() == ts {
			continue
		}
		w := 0
		for j := 1; j < i; j++ {
			if giretra.Beats(t.Cards[j], t.Cards[w], led, m) {
				w = j
			}
		}
		if t.PlayerAt(w).Team() == p.Team() && t.Cards[w].Suit() != ts {
			continue
		}
		a.oppNoTrump[p] = true
	}
}

// cardOf is the card seat p played to t.
func cardOf(t *giretra.Trick, p giretra.Position) giretra.Card {
	return t.Cards[(p-t.Leader)&3]
}

func (a *Eva) analyzePartner(t *giretra.Trick, h *giretra.HandState) {
	m := h.Mode
	partner := a.seat.Partner()
	if t.Leader == a.seat && t.Winner(m) == a.seat {
		if pc := cardOf(t, partner); pc.Suit() != t.Led() && isMaster(pc, m, 0, a.played) {
			a.priority.add(pc.Suit())
		}
	}
	// Suits the partner led and lost stay preferred.
	for i := range h.Completed {
		r := &h.Completed[i]
		if r.Leader == partner && r.WinnerIndex(m) != 0 {
			a.preferred.add(r.Led())
		}
	}
	a.analyzeCannotFollow(h, m)
}

// analyzeCannotFollow looks at the tricks this seat led and won with its
// lead card while the partner could not follow: discarding a suit upwards
// signals priority, downwards dislike.
func (a *Eva) analyzeCannotFollow(h *giretra.HandState, m giretra.Mode) {
	partner := a.seat.Partner()
	var cards []giretra.Card
	for i := range h.Completed {
		r := &h.Completed[i]
		if r.Leader != a.seat || r.WinnerIndex(m) != 0 {
			continue
		}
		if pc := cardOf(r, partner); pc.Suit() != r.Led() {
			cards = append(cards, pc)
		}
	}
	if len(cards) == 0 {
		return
	}
	var partnerSuits suits
	for su := range giretra.Suit(4) {
		var group []giretra.Card
		for _, c := range cards {
			if c.Suit() == su {
				group = append(group, c)
			}
		}
		if len(group) == 0 {
			continue
		}
		partnerSuits.add(su)
		if len(group) > 1 {
			if str(group[0], m) < str(group[1], m) {
				a.priority.add(su)
				a.preferred.add(su)
				a.disliked.del(su)
			} else {
				a.disliked.add(su)
				a.priority.del(su)
			}
		}
		// The engine's single-card rule needs a strength ≥ 10, which no
		// card has: it never fires.
	}
	if m.IsColour() || len(cards) < 2 || a.priority != 0 || a.disliked != 0 || a.preferred != 0 {
		return
	}
	playedSuits := suitsOf(a.played)
	for su := range giretra.Suit(4) {
		if !partnerSuits.has(su) && !playedSuits.has(su) {
			a.preferred.add(su)
		}
	}
}

// ---- Bidding -------------------------------------------------------------

// handEval is a hand's guaranteed and probable tricks and score in a mode.
type handEval struct {
	g, p  int
	score float64
}

func pointPct(hand giretra.Set, m giretra.Mode) float64 {
	return float64(giretra.SetPoints(hand, m)) / float64(m.Total()) * 100
}

func evaluate(hand giretra.Set, m giretra.Mode, starter bool) handEval {
	var e handEval
	has := func(r giretra.Rank, s giretra.Suit) bool { return hand.Has(giretra.NewCard(r, s)) }
	switch {
	case m.IsColour():
		ts := m.Trump()
		j, n, ace := has(giretra.Jack, ts), has(giretra.Nine, ts), has(giretra.Ace, ts)
		if j {
			e.g++
		}
		if n {
			if j {
				e.g++
			} else {
				e.p++
			}
		}
		if ace {
			if j && n {
				e.g++
			} else {
				e.p++
			}
		}
		trumps := hand.CountSuit(ts)
		for su := range giretra.Suit(4) {
			if su == ts {
				continue
			}
			switch {
			case hand.OfSuit(su) == 0:
				if trumps >= 2 {
					e.p++ // a void side suit to ruff
				}
			case has(giretra.Ace, su) && has(giretra.Ten, su):
				e.g++
			case has(giretra.Ace, su):
				e.p++
			}
		}
		switch {
		case trumps >= 5:
			e.g++
		case trumps == 4:
			e.p++
		}
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.30 + float64(5*trumps)
	case m == giretra.NoTrumps:
		aces := 0
		for su := range giretra.Suit(4) {
			cs := hand.OfSuit(su)
			if cs == 0 {
				continue
			}
			if has(giretra.Ace, su) {
				aces++
				e.g++
				if has(giretra.Ten, su) {
					e.g++
					if starter && (has(giretra.King, su) || cs.Count() >= 4) {
						e.g++
					}
				}
			}
			if cs.Count() >= 3 {
				e.p++
			}
		}
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.15 + float64(5*aces)
	default: // AllTrumps
		jacks, nines := 0, 0
		for su := range giretra.Suit(4) {
			j, n := has(giretra.Jack, su), has(giretra.Nine, su)
			jacks += b2i(j)
			nines += b2i(n)
			switch {
			case j:
				e.g++
				if n {
					e.g++
				}
				if has(giretra.Ace, su) {
					e.p++
				}
			case n:
				e.p++
			}
		}
		e.score = float64(18*e.g+8*e.p) + pointPct(hand, m)*0.30 + float64(5*jacks+3*nines)
	}
	e.score = min(100, max(0, e.score))
	return e
}

// aggressiveness is 0 (careful) .. 1 (desperate) from the match score
// (PlayerAgentHelper.ComputeAggressiveness).
func aggressiveness(ours, theirs, target int) float64 {
	op := float64(ours) / float64(target)
	tp := float64(theirs) / float64(target)
	switch {
	case tp >= 0.8 && op < 0.5:
		return 0.9
	case tp >= 0.6 && op < 0.3:
		return 0.7
	case op >= 0.8:
		return 0
	case op >= 0.6:
		return 0.1
	}
	return 0.3
}

// ChooseAction redoubles or doubles with enough sure tricks, announces its
// best mode when first to speak, else announces a strong enough mode (a
// lower bar against an opponent's bid), else accepts.
func (a *Eva) ChooseAction(_ context.Context, v *giretra.BidView) (giretra.Action, error) {
	a.seat = v.Seat
	starter := v.Negotiation.Dealer.Next() == a.seat
	var ev [6]handEval
	for m := giretra.ColourClubs; m <= giretra.AllTrumps; m++ {
		ev[m] = evaluate(v.Hand, m, starter)
	}
	my := a.team()
	ag := aggressiveness(v.Match.Points[my], v.Match.Points[my.Other()], v.Match.TargetScore)
	announceT := 55 - ag*15
	competeT := 42 - ag*7
	doubleT := 65 - ag*10
	redoubleT := 75 - ag*10
	doubleMin, redoubleMin := 3, 4
	if ag > 0.5 {
		doubleMin, redoubleMin = 2, 3
	}
	first := func(t giretra.ActionType) (giretra.Action, bool) {
		for _, x := range v.Valid {
			if x.Type == t {
				return x, true
			}
		}
		return giretra.Action{}, false
	}
	if x, ok := first(giretra.Redouble); ok {
		if e := ev[x.Mode]; e.g >= redoubleMin && e.score >= redoubleT {
			return x, nil
		}
	}
	if x, ok := first(giretra.Double); ok {
		if e := ev[x.Mode]; e.g >= doubleMin && e.score >= doubleT {
			return x, nil
		}
	}
	bestAnnounce := func(bar float64) (giretra.Action, bool) {
		var out giretra.Action
		found := false
		for _, x := range v.Valid {
			if x.Type != giretra.Announce || ev[x.Mode].score < bar {
				continue
			}
			if !found || ev[x.Mode].score > ev[out.Mode].score {
				out, found = x, true
			}
		}
		return out, found
	}
	_, bidder, hasBid := lastBid(v.Negotiation.Actions)
	if !hasBid {
		if x, ok := bestAnnounce(-1); ok {
			return x, nil
		}
	} else {
		if x, ok := bestAnnounce(announceT); ok {
			return x, nil
		}
		if bidder.Team() != my {
			if x, ok := bestAnnounce(competeT); ok {
				return x, nil
			}
		}
	}
	if x, ok := first(giretra.Accept); ok {
		return x, nil
	}
	return v.Valid[0], nil
}

// ---- Card play -----------------------------------------------------------

// ChooseCard leads or follows; see lead and follow.
func (a *Eva) ChooseCard(_ context.Context, v *giretra.PlayView) (giretra.Card, error) {
	a.seat = v.Seat
	if v.Valid.Count() == 1 {
		return v.Valid.First(), nil
	}
	a.remaining &^= v.Hand
	if v.State.Current.N == 0 {
		return a.lead(v), nil
	}
	return a.follow(v), nil
}

func (a *Eva) master(c giretra.Card, m giretra.Mode, hand giretra.Set) bool {
	return isMaster(c, m, hand, a.played)
}

func (a *Eva) oppsVoidIn(su giretra.Suit) bool {
	return a.oppVoids[a.seat.Next()].has(su) && a.oppVoids[a.seat.Partner().Next()].has(su)
}

func (a *Eva) oppsOutOfTrump() bool {
	return a.oppNoTrump[a.seat.Next()] && a.oppNoTrump[a.seat.Partner().Next()]
}

func (a *Eva) lead(v *giretra.PlayView) giretra.Card {
	m := v.State.Mode
	hand, valid := v.Hand, v.Valid
	ts, colour := trumpSuit(m)
	trick := len(v.State.Completed) + 1
	if trick == 8 {
		return a.lastTrickLead(v)
	}
	if a.priority != 0 && !colour {
		if pc := inSuits(valid, a.priority); pc != 0 {
			return strongest(pc, m)
		}
	}
	masters := filter(hand, func(c giretra.Card) bool { return a.master(c, m, hand) }) & valid
	if masters != 0 && !holdBackMasters(masters, trick, m) {
		prefs := filter(masters, func(c giretra.Card) bool { return !a.disliked.has(c.Suit()) })
		order := func(x, y giretra.Card) int {
			px := a.priority.has(x.Suit()) || a.preferred.has(x.Suit())
			py := a.priority.has(y.Suit()) || a.preferred.has(y.Suit())
			lx := a.hasLastLead && x.Suit() == a.lastLead
			ly := a.hasLastLead && y.Suit() == a.lastLead
			return cmp.Or(cmp.Compare(b2i(py), b2i(px)), cmp.Compare(b2i(ly), b2i(lx)), cmp.Compare(str(y, m), str(x, m)))
		}
		if colour && a.oppsOutOfTrump() {
			if side := prefs &^ giretra.SuitMask(ts); side != 0 {
				c := pick(side, order)
				a.lastLead, a.hasLastLead = c.Suit(), true
				return c
			}
		} else {
			if prefs != 0 {
				c := pick(prefs, order)
				a.lastLead, a.hasLastLead = c.Suit(), true
				return c
			}
			return pick(masters, func(x, y giretra.Card) int { return cmp.Compare(pts(y, m), pts(x, m)) })
		}
	}
	a.hasLastLead = false
	if a.priority != 0 {
		if pc := inSuits(valid, a.priority); pc != 0 {
			return strongest(pc, m)
		}
	}
	if colour {
		if c := a.trumpExhaustion(hand, valid, m, ts); c != giretra.NoCard {
			return c
		}
	}
	if a.preferred != 0 {
		pc := inSuits(valid, a.preferred|a.priority)
		if colour {
			pc &^= giretra.SuitMask(ts)
		}
		if pc != 0 {
			return strongest(pc, m)
		}
	}
	if !colour {
		if c := a.leadIntoVoid(valid, m); c != giretra.NoCard {
			return c
		}
	}
	return a.defaultLead(valid, m)
}

// holdBackMasters: early in NoTrumps, keep masters spread over ≥ 3 suits.
func holdBackMasters(masters giretra.Set, trick int, m giretra.Mode) bool {
	if trick > 3 || m != giretra.NoTrumps {
		return false
	}
	ratio := float64(masters.Count()) / (8.0 - float64(trick-1))
	return suitsCount(suitsOf(masters)) >= 3 && ratio < 0.4
}

func suitsCount(s suits) int {
	n := 0
	for su := range giretra.Suit(4) {
		n += b2i(s.has(su))
	}
	return n
}

// trumpExhaustion leads the strongest trump when it is a master and the
// hand holds more trumps than remain outside it.
func (a *Eva) trumpExhaustion(hand, valid giretra.Set, m giretra.Mode, ts giretra.Suit) giretra.Card {
	mine := valid.OfSuit(ts)
	if mine == 0 {
		return giretra.NoCard
	}
	outside := a.remaining.CountSuit(ts)
	if mine.Count() <= outside || outside <= 0 {
		return giretra.NoCard
	}
	if top := strongest(mine, m); a.master(top, m, hand) {
		return top
	}
	return giretra.NoCard
}

// leadIntoVoid (NoTrumps/AllTrumps) leads the second-strongest card of the
// shortest suit an opponent is known void in.
func (a *Eva) leadIntoVoid(valid giretra.Set, m giretra.Mode) giretra.Card {
	voids := a.knownVoids[a.seat.Next()] | a.knownVoids[a.seat.Previous()]
	cand := inSuits(valid, voids)
	if cand == 0 {
		return giretra.NoCard
	}
	best := -1
	for su := range giretra.Suit(4) {
		if n := cand.CountSuit(su); n > 0 && (best < 0 || n < cand.CountSuit(giretra.Suit(best))) {
			best = int(su)
		}
	}
	return secondStrongest(cand.OfSuit(giretra.Suit(best)), m)
}

// defaultLead is the second-strongest card of the longest side suit (ties:
// the stronger top card), avoiding the partner's disliked suits.
func (a *Eva) defaultLead(valid giretra.Set, m giretra.Mode) giretra.Card {
	consider := filter(valid, func(c giretra.Card) bool { return !a.disliked.has(c.Suit()) })
	if consider == 0 {
		consider = valid
	}
	side := consider
	if ts, ok := trumpSuit(m); ok {
		side &^= giretra.SuitMask(ts)
	}
	if side == 0 {
		return a.least(valid, m, valid)
	}
	best, bestN, bestTop := -1, 0, 0
	for su := range giretra.Suit(4) {
		cs := side.OfSuit(su)
		if cs == 0 {
			continue
		}
		n, top := cs.Count(), str(strongest(cs, m), m)
		if best < 0 || n > bestN || (n == bestN && top > bestTop) {
			best, bestN, bestTop = int(su), n, top
		}
	}
	return secondStrongest(side.OfSuit(giretra.Suit(best)), m)
}

func (a *Eva) lastTrickLead(v *giretra.PlayView) giretra.Card {
	m := v.State.Mode
	my := a.team()
	if a.hasContract && a.contract.AnnouncerTeam() == my && v.State.CardPoints[my] >= winThreshold(m) {
		return a.least(v.Valid, m, v.Valid)
	}
	return strongest(v.Valid, m)
}

// winThreshold is the announcer's card points needed (GameMode.GetWinThreshold).
func winThreshold(m giretra.Mode) int {
	switch {
	case m == giretra.AllTrumps:
		return 129
	case m == giretra.NoTrumps:
		return 65
	}
	return 82
}

func (a *Eva) follow(v *giretra.PlayView) giretra.Card {
	m := v.State.Mode
	hand, valid := v.Hand, v.Valid
	t := &v.State.Current
	wi := t.WinnerIndex(m)
	wc := t.Cards[wi]
	mateWins := t.PlayerAt(wi).Team() == a.team()
	led := t.Led()
	ts, colour := trumpSuit(m)
	following := valid.OfSuit(led) != 0
	trumping := !following && colour && valid.OfSuit(ts) != 0
	if !following && !trumping {
		if isMaster(wc, m, 0, a.played) && mateWins {
			return a.mostValuableUseless(valid, m, hand, led)
		}
		return a.least(valid, m, hand)
	}
	if trumping {
		return a.smartTrump(v, mateWins, wc)
	}
	switch t.N {
	case 1:
		return a.second(v, wc)
	case 2:
		return a.third(v, mateWins, wc)
	}
	return a.fourth(v, mateWins, wc)
}

// second seat: grab a fresh side suit with a master, else win only cheaply.
func (a *Eva) second(v *giretra.PlayView, wc giretra.Card) giretra.Card {
	m := v.State.Mode
	hand, valid := v.Hand, v.Valid
	t := &v.State.Current
	led := t.Led()
	mw := minWinner(valid, wc, led, m)
	if ts, ok := trumpSuit(m); ok && ts != led && mw != giretra.NoCard {
		fresh := a.played.CountSuit(led) < 3
		if fresh && (!a.oppsVoidIn(led) || a.oppsOutOfTrump()) {
			// Masters counting every trump as gone.
			gone := a.played | giretra.SuitMask(ts)
			if ms := filter(valid, func(c giretra.Card) bool { return isMaster(c, m, hand, gone) }); ms != 0 {
				return strongest(ms, m)
			}
		}
	}
	if mw != giretra.NoCard {
		if t.Points(m) >= 10 || pts(mw, m) <= 4 {
			return mw
		}
	}
	return a.least(valid, m, hand)
}

// third seat: load points on a sure partner's trick, else try to win.
func (a *Eva) third(v *giretra.PlayView, mateWins bool, wc giretra.Card) giretra.Card {
	m := v.State.Mode
	hand, valid := v.Hand, v.Valid
	led := v.State.Current.Led()
	fourth := a.seat.Next()
	if mateWins {
		if a.master(wc, m, hand) {
			return a.mostValuableUseless(valid, m, hand, led)
		}
		if a.knownVoids[fourth].has(led) && (!m.IsColour() || a.oppNoTrump[fourth]) {
			return a.mostValuableUseless(valid, m, hand, led)
		}
		return a.least(valid, m, hand)
	}
	if c := a.maxWinningMaster(valid, wc, led, m); c != giretra.NoCard {
		return c
	}
	return a.least(valid, m, hand)
}

// maxWinningMaster is the strongest winner if it is a master (counting
// the valid plays as held), else the cheapest winner if worth < 10.
func (a *Eva) maxWinningMaster(valid giretra.Set, wc giretra.Card, led giretra.Suit, m giretra.Mode) giretra.Card {
	win := filter(valid, func(c giretra.Card) bool { return giretra.Beats(c, wc, led, m) })
	if win == 0 {
		return giretra.NoCard
	}
	if top := strongest(win, m); isMaster(top, m, valid, a.played) {
		return top
	}
	if cheap := weakest(win, m); pts(cheap, m) < 10 {
		return cheap
	}
	return giretra.NoCard
}

// fourth seat: escape a 10+-point non-master, load on the partner, else win
// as cheaply as possible.
func (a *Eva) fourth(v *giretra.PlayView, mateWins bool, wc giretra.Card) giretra.Card {
	m := v.State.Mode
	hand, valid := v.Hand, v.Valid
	led := v.State.Current.Led()
	if m == giretra.NoTrumps || (m.IsColour() && m.Trump() != led) {
		esc := filter(valid, func(c giretra.Card) bool { return pts(c, m) >= 10 && !a.master(c, m, hand) })
		if esc != 0 {
			return strongest(esc, m)
		}
	}
	if mateWins {
		return a.mostValuableUseless(valid, m, hand, led)
	}
	if mw := minWinner(valid, wc, led, m); mw != giretra.NoCard {
		return mw
	}
	return a.least(valid, m, hand)
}

// smartTrump: discard instead of ruffing a partner's side-card trick,
// else over-trump minimally, else the lowest trump.
func (a *Eva) smartTrump(v *giretra.PlayView, mateWins bool, wc giretra.Card) giretra.Card {
	m := v.State.Mode
	valid := v.Valid
	t := &v.State.Current
	ts := m.Trump()
	trumps := valid.OfSuit(ts)
	side := valid &^ giretra.SuitMask(ts)
	oppMaster := false
	for i := range int(t.N) {
		if t.PlayerAt(i).Team() != a.team() && isMaster(t.Cards[i], m, 0, a.played) {
			oppMaster = true
		}
	}
	if mateWins && wc.Suit() != ts && side != 0 {
		return a.smartDiscard(valid, side, m, oppMaster)
	}
	if trumps == 0 {
		return a.smartDiscard(valid, valid, m, oppMaster)
	}
	if wc.Suit() == ts {
		over := filter(trumps, func(c giretra.Card) bool { return giretra.Beats(c, wc, t.Led(), m) })
		if over != 0 {
			return weakest(over, m)
		}
	}
	return weakest(trumps, m)
}

// smartDiscard discards from the shortest side suit, preferring suits where
// the opponents hold the master; when the trick is lost, the least valuable.
func (a *Eva) smartDiscard(hand, cands giretra.Set, m giretra.Mode, lost bool) giretra.Card {
	side := cands
	if ts, ok := trumpSuit(m); ok {
		side &^= giretra.SuitMask(ts)
	}
	if side == 0 || lost {
		return a.least(cands, m, hand)
	}
	// Suits by length, then not-partner-liked first (a stable order).
	type group struct {
		su giretra.Suit
		n  int
	}
	var gs []group
	for su := range giretra.Suit(4) {
		if n := side.CountSuit(su); n > 0 {
			gs = append(gs, group{su, n})
		}
	}
	liked := func(su giretra.Suit) int { return b2i(a.preferred.has(su) || a.priority.has(su)) }
	slices.SortStableFunc(gs, func(x, y group) int {
		return cmp.Or(cmp.Compare(x.n, y.n), cmp.Compare(liked(x.su), liked(y.su)))
	})
	best := gs[0]
	for _, g := range gs {
		if g.n > best.n {
			break
		}
		top := str(strongest(side.OfSuit(g.su), m), m)
		oppMaster := filter(a.remaining.OfSuit(g.su), func(c giretra.Card) bool { return str(c, m) > top }) != 0
		if oppMaster && !a.preferred.has(g.su) {
			best = g
			break
		}
	}
	return pick(side.OfSuit(best.su), func(x, y giretra.Card) int {
		return cmp.Or(cmp.Compare(pts(x, m), pts(y, m)), cmp.Compare(str(x, m), str(y, m)))
	})
}

// mostValuableUseless picks the card to load onto a trick the team wins.
func (a *Eva) mostValuableUseless(valid giretra.Set, m giretra.Mode, hand giretra.Set, led giretra.Suit) giretra.Card {
	if valid.Count() == 1 {
		return valid.First()
	}
	if valid.OfSuit(led) != 0 {
		top := strongest(valid, m)
		if isTrumpSuit(top.Suit(), m) && a.master(top, m, hand) {
			return weakest(valid, m) // keep a master trump for leading
		}
		return top
	}
	masterSuits := suitsOf(filter(hand, func(c giretra.Card) bool { return a.master(c, m, hand) }))
	n := func(c giretra.Card) int { return valid.CountSuit(c.Suit()) }
	isT := func(c giretra.Card) int { return b2i(isTrumpSuit(c.Suit(), m)) }
	if filter(valid, func(c giretra.Card) bool { return !a.master(c, m, hand) }) == 0 {
		return pick(valid, func(x, y giretra.Card) int {
			return cmp.Or(cmp.Compare(isT(x), isT(y)), cmp.Compare(n(y), n(x)),
				cmp.Compare(pts(y, m), pts(x, m)), cmp.Compare(str(y, m), str(x, m)))
		})
	}
	free := filter(valid, func(c giretra.Card) bool { return !masterSuits.has(c.Suit()) && isT(c) == 0 })
	high := filter(free, func(c giretra.Card) bool { return pts(c, m) >= 10 && !a.master(c, m, hand) })
	if high != 0 {
		return pick(high, func(x, y giretra.Card) int {
			return cmp.Or(cmp.Compare(n(x), n(y)), cmp.Compare(pts(y, m), pts(x, m)), cmp.Compare(str(y, m), str(x, m)))
		})
	}
	if free != 0 {
		mst := func(c giretra.Card) int { return b2i(a.master(c, m, hand)) }
		return pick(free, func(x, y giretra.Card) int {
			return cmp.Or(cmp.Compare(mst(x), mst(y)), cmp.Compare(n(x), n(y)), cmp.Compare(pts(y, m), pts(x, m)))
		})
	}
	return pick(valid, func(x, y giretra.Card) int {
		return cmp.Or(cmp.Compare(str(x, m), str(y, m)), cmp.Compare(n(y), n(x)))
	})
}

// protectable lists the suits whose top held card needs every other held
// card of the suit as guards (PlayerAgentHelper.GetProtectableSuits).
func protectable(hand giretra.Set, m giretra.Mode, played giretra.Set) suits {
	var out suits
	out2 := giretra.FullDeck &^ played &^ hand
	for su := range giretra.Suit(4) {
		cs := hand.OfSuit(su)
		if cs == 0 {
			continue
		}
		top := str(strongest(cs, m), m)
		above := filter(out2.OfSuit(su), func(c giretra.Card) bool { return str(c, m) > top }).Count()
		if above+1 == cs.Count() {
			out.add(su)
		}
	}
	return out
}

// least is the least valuable card of cands: side suits before trumps,
// non-masters, unprotected suits, fewest points, shortest suit, weakest.
func (a *Eva) least(cands giretra.Set, m giretra.Mode, hand giretra.Set) giretra.Card {
	prot := protectable(hand, m, a.played) &^ a.priority
	n := func(c giretra.Card) int { return cands.CountSuit(c.Suit()) }
	return pick(cands, func(x, y giretra.Card) int {
		return cmp.Or(
			cmp.Compare(b2i(isTrumpSuit(x.Suit(), m)), b2i(isTrumpSuit(y.Suit(), m))),
			cmp.Compare(b2i(a.master(x, m, hand)), b2i(a.master(y, m, hand))),
			cmp.Compare(b2i(prot.has(x.Suit())), b2i(prot.has(y.Suit()))),
			cmp.Compare(pts(x, m), pts(y, m)),
			cmp.Compare(n(x), n(y)),
			cmp.Compare(str(x, m), str(y, m)),
		)
	})
}
