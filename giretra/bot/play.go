package bot

import (
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
)

// playCtx is everything the heuristic card player works from.
type playCtx struct {
	k       search.Knowledge
	m       giretra.Mode
	seat    giretra.Position
	partner giretra.Position
	opps    [2]giretra.Position
	ctr     giretra.Contract
	attack  bool // our team must make the contract
	valid   giretra.Set
	unseen  giretra.Set
	trumps  giretra.Set // Colour trump suit; empty in NoTrumps and AllTrumps
	prefer  [4]bool     // partner's suits (its announcements, its leads)
	neg     *giretra.Negotiation
}

func newPlayCtx(v *giretra.PlayView, ctr giretra.Contract, neg *giretra.Negotiation) *playCtx {
	pc := new(playCtx)
	pc.init(v, ctr, neg)
	return pc
}

// heuristicCard is the fast player's choice (no allocation).
func heuristicCard(v *giretra.PlayView, ctr giretra.Contract, neg *giretra.Negotiation) giretra.Card {
	var pc playCtx
	pc.init(v, ctr, neg)
	return pc.choose()
}

func (pc *playCtx) init(v *giretra.PlayView, ctr giretra.Contract, neg *giretra.Negotiation) {
	k := search.Infer(v.Seat, v.Hand, v.State)
	*pc = playCtx{
		k:       k,
		m:       k.Mode,
		seat:    v.Seat,
		partner: v.Seat.Partner(),
		opps:    [2]giretra.Position{v.Seat.Next(), v.Seat.Previous()},
		ctr:     ctr,
		attack:  ctr.AnnouncerTeam() == v.Seat.Team(),
		valid:   v.Valid & v.Hand,
		unseen:  k.Unseen(),
		neg:     neg,
	}
	if pc.valid == 0 {
		pc.valid = v.Valid
	}
	if pc.m.IsColour() {
		pc.trumps = giretra.SuitMask(pc.m.Trump())
	}
	if neg != nil {
		for _, a := range neg.Actions {
			if a.Type == giretra.Announce && a.Player == pc.partner && a.Mode.IsColour() && a.Mode != pc.m {
				pc.prefer[a.Mode.Trump()] = true
			}
		}
	}
	for i := range v.State.Completed {
		t := &v.State.Completed[i]
		if t.Leader == pc.partner && t.N > 0 && !pc.m.IsTrump(t.Led()) {
			pc.prefer[t.Led()] = true
		}
	}
}

func (pc *playCtx) str(c giretra.Card) int { return giretra.Strength(c, pc.m) }
func (pc *playCtx) pts(c giretra.Card) int { return giretra.Points(c, pc.m) }

// strongest and weakest card of a non-empty set (ties: fewer points).
func (pc *playCtx) strongest(s giretra.Set) giretra.Card {
	best := giretra.NoCard
	for c := range s.All() {
		if best == giretra.NoCard || pc.str(c) > pc.str(best) {
			best = c
		}
	}
	return best
}

func (pc *playCtx) weakest(s giretra.Set) giretra.Card {
	best := giretra.NoCard
	for c := range s.All() {
		if best == giretra.NoCard || pc.str(c) < pc.str(best) || (pc.str(c) == pc.str(best) && pc.pts(c) < pc.pts(best)) {
			best = c
		}
	}
	return best
}

// master reports whether no unseen card of c's suit outranks c.
func (pc *playCtx) master(c giretra.Card) bool {
	return giretra.Stronger(c, pc.m)&pc.unseen == 0
}

// pHolds is the chance seat p holds at least one card of s, treating p's
// hand as a uniform draw from the cards it may hold.
func (pc *playCtx) pHolds(p giretra.Position, s giretra.Set) float64 {
	may := pc.k.MayHold(p)
	h := (s & may).Count()
	if h == 0 {
		return 0
	}
	n, N := pc.k.Count[p], may.Count()
	if n >= N {
		return 1
	}
	none := 1.0
	for i := range n {
		if N-h-i <= 0 {
			return 1
		}
		none *= float64(N-h-i) / float64(N-i)
	}
	return 1 - none
}

func (pc *playCtx) pVoid(p giretra.Position, s giretra.Suit) float64 {
	return 1 - pc.pHolds(p, giretra.SuitMask(s))
}

// pBeats is the chance seat r (yet to play) can beat card x, the winning
// card of a trick whose led suit is led.
func (pc *playCtx) pBeats(r giretra.Position, x giretra.Card, led giretra.Suit) float64 {
	may := pc.k.MayHold(r)
	higher := giretra.Stronger(x, pc.m) & may
	if x.Suit() == led {
		p := pc.pHolds(r, higher)
		if pc.trumps != 0 && led != pc.m.Trump() {
			p += pc.pVoid(r, led) * pc.pHolds(r, pc.trumps)
		}
		return min(p, 1)
	}
	// x is a trump on a side suit: r must be void in led to over-trump.
	return pc.pVoid(r, led) * pc.pHolds(r, higher)
}

// pWin is the chance card x, winning the trick now, stays the winner
// against the opponents still to play after position i in the trick.
func (pc *playCtx) pWin(x giretra.Card, led giretra.Suit, t *giretra.Trick, i int) float64 {
	p := 1.0
	for j := i + 1; j < 4; j++ {
		r := t.PlayerAt(j)
		if r.Team() == pc.seat.Team() {
			continue
		}
		p *= 1 - pc.pBeats(r, x, led)
	}
	return p
}

// choose is the heuristic decision.
func (pc *playCtx) choose() giretra.Card {
	if pc.valid.Count() == 1 {
		return pc.valid.First()
	}
	if pc.k.Trick.N == 0 {
		return pc.lead()
	}
	return pc.follow()
}

func (pc *playCtx) oppTrumps() giretra.Set {
	return (pc.k.MayHold(pc.opps[0]) | pc.k.MayHold(pc.opps[1])) & pc.trumps
}

func (pc *playCtx) lead() giretra.Card {
	if c, ok := pc.drawTrumps(); ok {
		return c
	}
	if c := pc.cashWinner(); c != giretra.NoCard {
		return c
	}
	// Otherwise the card that risks least and helps the partner most.
	bestC, bestV := giretra.NoCard, -1e9
	for c := range pc.valid.All() {
		if v := pc.leadValue(c); v > bestV {
			bestC, bestV = c, v
		}
	}
	return bestC
}

// drawTrumps is the trump to lead when attacking in a Colour mode while
// the opponents may hold trumps: the master trump, or a small one when
// the partner announced.
func (pc *playCtx) drawTrumps() (giretra.Card, bool) {
	if pc.trumps == 0 || !pc.attack || pc.oppTrumps() == 0 {
		return giretra.NoCard, false
	}
	my := pc.valid & pc.trumps
	if my == 0 {
		return giretra.NoCard, false
	}
	top := pc.strongest(my)
	if pc.master(top) {
		return top, true
	}
	if pc.ctr.Announcer == pc.partner && pc.pts(pc.weakest(my)) <= 4 {
		return pc.weakest(my), true
	}
	return giretra.NoCard, false
}

// cashWinner is the sure winner to cash, most points first; NoCard when
// none is sure enough.
func (pc *playCtx) cashWinner() giretra.Card {
	t := giretra.NewTrick(pc.seat)
	valid := pc.valid
	bestC, bestV := giretra.NoCard, -1.0
	for c := range valid.All() {
		if !pc.master(c) {
			continue
		}
		if pc.trumps.Has(c) && pc.oppTrumps() == 0 && (valid&^pc.trumps) != 0 {
			continue // no need to spend trumps
		}
		if pc.trumps.Has(c) && !pc.attack {
			continue
		}
		w := pc.pWin(c, c.Suit(), &t, 0)
		if w < 0.8 {
			continue
		}
		if v := w * float64(pc.pts(c)+5); v > bestV {
			bestC, bestV = c, v
		}
	}
	return bestC
}

// leadValue is how good a lead c is when no card is sure: what it risks,
// and how it helps the partner.
func (pc *playCtx) leadValue(c giretra.Card) float64 {
	m := pc.m
	s := c.Suit()
	v := -1.5 * float64(pc.pts(c))
	suit := pc.k.Hand.OfSuit(s)
	v += float64(suit.Count())
	higherOut := giretra.Stronger(c, m) & pc.unseen
	if pc.pts(c) >= 10 && higherOut != 0 {
		v -= 15 // leading a 10 into the ace (or a 9/J into higher trumps)
	}
	// The partner may hold the top of the suit.
	if higherOut != 0 {
		top := pc.strongest(higherOut)
		if pc.k.MayHold(pc.partner).Has(top) {
			pp := pc.pHolds(pc.partner, top.Bit())
			po := max(pc.pHolds(pc.opps[0], top.Bit()), pc.pHolds(pc.opps[1], top.Bit()))
			v += 6 * (pp - po)
		}
	}
	if pc.prefer[s] {
		v += 6
	}
	if pc.trumps != 0 {
		if pc.trumps.Has(c) {
			if !pc.attack {
				v -= 10
			}
		} else {
			for _, o := range pc.opps {
				v -= 10 * pc.pVoid(o, s) * pc.pHolds(o, pc.trumps)
			}
			if !pc.attack || pc.ctr.Announcer != pc.partner {
				v += 5 * pc.pVoid(pc.partner, s) * pc.pHolds(pc.partner, pc.trumps)
			}
		}
	} else if m == giretra.NoTrumps {
		// Long suits run once their top is gone.
		v += float64(suit.Count())
	}
	// Keep guards of a 10 whose ace is out.
	if ten := giretra.NewCard(giretra.Ten, s); !pc.m.IsTrump(s) && suit.Has(ten) && c != ten &&
		pc.unseen.Has(giretra.NewCard(giretra.Ace, s)) && suit.Count() <= 2 {
		v -= 5
	}
	return v
}

func (pc *playCtx) follow() giretra.Card {
	t := &pc.k.Trick
	i := int(t.N) // my index in the trick
	led := t.Led()
	wi := t.WinnerIndex(pc.m)
	wc := t.Cards[wi]
	partnerWins := t.PlayerAt(wi) == pc.partner
	trickPts := t.Points(pc.m)
	if pc.k.TrickNo == 7 {
		trickPts += 10
	}
	last := i == 3

	if partnerWins {
		if last || pc.pWin(wc, led, t, i) >= 0.75 {
			return pc.load()
		}
	}
	// Cards that would take the lead.
	var winners giretra.Set
	for c := range pc.valid.All() {
		if giretra.Beats(c, wc, led, pc.m) {
			winners |= c.Bit()
		}
	}
	if winners != 0 {
		// Best chance of holding, then cheapest.
		bestC, bestW := giretra.NoCard, -1.0
		for c := range winners.All() {
			w := 1.0
			if !last {
				w = pc.pWin(c, led, t, i)
			}
			better := w > bestW+0.05
			if !better && w > bestW-0.05 {
				better = pc.pts(c) < pc.pts(bestC) || (pc.pts(c) == pc.pts(bestC) && pc.str(c) < pc.str(bestC))
			}
			if bestC == giretra.NoCard || better {
				bestC, bestW = c, w
			}
		}
		c := bestC
		gain := float64(trickPts + pc.pts(c))
		switch {
		case last:
			// Win unless it burns a big trump on an empty trick.
			if trickPts > 0 || pc.pts(c) <= 4 || !pc.trumps.Has(c) {
				return c
			}
		case partnerWins:
			// Overtake the partner only with a sure winner worth it.
			if bestW >= 0.9 && bestW > pc.pWin(wc, led, t, i)+0.3 && gain >= 10 {
				return c
			}
		default:
			if bestW >= 0.7 || (bestW >= 0.45 && gain >= 10) {
				return c
			}
		}
	}
	if partnerWins {
		// Partner might hold: give moderate points only if fairly safe.
		if pc.pWin(wc, led, t, i) >= 0.5 {
			return pc.loadSafe()
		}
	}
	return pc.dump()
}

// load gives the most points to a trick the team wins.
func (pc *playCtx) load() giretra.Card {
	bestC, bestV := giretra.NoCard, -1e9
	for c := range pc.valid.All() {
		v := float64(pc.pts(c))
		if pc.master(c) && c.Suit() != pc.k.Trick.Led() {
			v -= 0.6 * float64(pc.pts(c)) // a master wins its own trick later
		}
		if pc.trumps.Has(c) {
			v -= 12 + float64(pc.str(c))
		}
		v -= 0.1 * float64(pc.str(c))
		if v > bestV {
			bestC, bestV = c, v
		}
	}
	return bestC
}

// loadSafe gives a moderate card: a 10 or less, never a trump or a master.
func (pc *playCtx) loadSafe() giretra.Card {
	bestC, bestV := giretra.NoCard, -1e9
	for c := range pc.valid.All() {
		p := pc.pts(c)
		v := float64(p)
		if p > 10 || pc.master(c) || pc.trumps.Has(c) {
			v = -float64(p) - 20
		}
		if v > bestV {
			bestC, bestV = c, v
		}
	}
	return bestC
}

// dump plays the card that costs least.
func (pc *playCtx) dump() giretra.Card {
	bestC, bestV := giretra.NoCard, 1e9
	for c := range pc.valid.All() {
		s := c.Suit()
		v := float64(pc.pts(c)) + 0.2*float64(pc.str(c))
		if pc.master(c) {
			v += 12
		}
		if pc.trumps.Has(c) {
			v += 8 + float64(pc.str(c))
		}
		suit := pc.k.Hand.OfSuit(s)
		// Do not bare a 10 whose ace is out.
		if ten := giretra.NewCard(giretra.Ten, s); c != ten && suit.Has(ten) && !pc.m.IsTrump(s) &&
			pc.unseen.Has(giretra.NewCard(giretra.Ace, s)) && suit.Count() == 2 {
			v += 6
		}
		if pc.prefer[s] {
			v += 2
		}
		if v < bestV {
			bestC, bestV = c, v
		}
	}
	return bestC
}
