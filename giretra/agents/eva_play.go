package agents

import (
	"cmp"
	"context"
	"slices"

	"github.com/botarena/gamebot/giretra"
)

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
