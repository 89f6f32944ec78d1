package wire

import (
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/jsonscan"
)

// Conversions to the model. The shapes have been checked: what is left to
// find is names the model does not know and contradictions.

// position reads a seat name (any case); ok is false when absent or "".
func position(v value, p *path) (giretra.Position, bool, error) {
	s, err := str(v, p)
	if err != nil || len(s) == 0 {
		return 0, false, err
	}
	pos, ok := giretra.ParsePosition(string(s))
	if !ok {
		return 0, false, malformed("%s: unknown position %q", p.String(), s)
	}
	return pos, true, nil
}

// card reads {"rank","suit"}; names are matched ignoring case.
func card(v value, p *path) (giretra.Card, error) {
	if v.Kind() != jsonscan.Object {
		return giretra.NoCard, typeError(p, "an object", v)
	}
	rp, sp := p.field("rank"), p.field("suit")
	rank, err := str(v.Field("rank"), &rp)
	if err != nil {
		return giretra.NoCard, err
	}
	suit, err := str(v.Field("suit"), &sp)
	if err != nil {
		return giretra.NoCard, err
	}
	r, ok := giretra.ParseRank(string(rank))
	if !ok {
		return giretra.NoCard, malformed("%s: unknown card rank %q", p.String(), rank)
	}
	s, ok := giretra.ParseSuit(string(suit))
	if !ok {
		return giretra.NoCard, malformed("%s: unknown card suit %q", p.String(), suit)
	}
	return giretra.NewCard(r, s), nil
}

// cardSet reads a list of distinct cards (a hand).
func cardSet(v value, p *path) (giretra.Set, error) {
	var s giretra.Set
	i := 0
	for e := v.First(); e.Kind() != absent; e = e.Next() {
		ep := p.elem(i)
		c, err := card(e, &ep)
		if err != nil {
			return 0, err
		}
		if s.Has(c) {
			return 0, impossible("%s: %v appears twice", p.String(), c)
		}
		s = s.With(c)
		i++
	}
	return s, nil
}

// matchState reads a match state in either dialect (the seed's score and
// dealer). Absent parts default (target 0 means unknown; dealer Bottom).
// Completed deals are kept for their count and contracts; unknown names in
// them are tolerated.
func matchState(v value) (giretra.MatchState, error) {
	p := &path{name: "matchState"}
	ms := giretra.NewMatchState(0, giretra.Bottom)
	if v.Kind() != jsonscan.Object {
		return ms, nil // absent or null (shape checked)
	}
	ms.TargetScore, _ = v.Field("targetScore").Int()
	ms.Points[0], _ = v.Field("team1MatchPoints").Int()
	ms.Points[1], _ = v.Field("team2MatchPoints").Int()
	if sc := v.Field("score"); sc.Kind() == jsonscan.Object { // seed
		ms.Points[0], _ = sc.Field("team1").Int()
		ms.Points[1], _ = sc.Field("team2").Int()
	}
	dp := p.field("currentDealer")
	d, ok, err := position(v.Field("currentDealer"), &dp)
	if err != nil {
		return ms, err
	}
	if !ok {
		dp = p.field("dealer") // seed
		if d, ok, err = position(v.Field("dealer"), &dp); err != nil {
			return ms, err
		}
	}
	if ok {
		ms.Dealer = d
	}
	ms.Complete, _ = v.Field("isComplete").Bool()
	if deals := v.Field("completedDeals"); deals.Kind() == jsonscan.Array {
		ms.Deals = make([]giretra.DealResult, 0, deals.Len())
		for e := deals.First(); e.Kind() != absent; e = e.Next() {
			r := giretra.DealResult{SweepingTeam: giretra.NoTeam}
			mode, _ := e.Field("gameMode").Bytes()
			mul, _ := e.Field("multiplier").Bytes()
			team, _ := e.Field("announcerTeam").Bytes()
			r.Mode, _ = giretra.ParseMode(string(mode))
			r.Multiplier, _ = giretra.ParseMultiplier(string(mul))
			r.AnnouncerTeam, _ = giretra.ParseTeam(string(team))
			ms.Deals = append(ms.Deals, r)
		}
	}
	return ms, nil
}

// trick reads a trick in either dialect (playedCards or the seed's cards).
func trick(v value, p *path) (giretra.Trick, error) {
	var tr giretra.Trick
	if v.Kind() != jsonscan.Object {
		return tr, typeError(p, "an object", v)
	}
	cards := v.Field("playedCards")
	if cards.Missing() {
		cards = v.Field("cards")
	}
	if n := cards.Len(); n > 4 {
		return tr, malformed("%s: %d cards in a trick", p.String(), n)
	}
	lp := p.field("leader")
	leader, ok, err := position(v.Field("leader"), &lp)
	if err != nil {
		return tr, err
	}
	if first := cards.First(); !ok && first.Kind() == jsonscan.Object {
		fp := p.field("playedCards")
		fp0 := fp.elem(0)
		fpp := fp0.field("player")
		if leader, ok, err = position(first.Field("player"), &fpp); err != nil {
			return tr, err
		}
	}
	if !ok {
		return tr, malformed("%s: no leader", p.String())
	}
	tr = giretra.NewTrick(leader)
	cp := p.field("playedCards")
	i := 0
	for e := cards.First(); e.Kind() != absent; e = e.Next() {
		ep := cp.elem(i)
		if e.Kind() != jsonscan.Object {
			return tr, typeError(&ep, "an object", e)
		}
		cv := e.Field("card")
		if cv.Missing() {
			return tr, malformed("%s: card %d missing", p.String(), i+1)
		}
		cardp := ep.field("card")
		c, err := card(cv, &cardp)
		if err != nil {
			return tr, err
		}
		pp := ep.field("player")
		who, ok, err := position(e.Field("player"), &pp)
		if err != nil {
			return tr, err
		}
		if ok && who != tr.Next() {
			return tr, impossible("%s: card %d played by %v, expected %v", p.String(), i+1, who, tr.Next())
		}
		tr.Add(c)
		i++
	}
	return tr, nil
}

// handState reads a hand state: tricks, with card points and tricks won
// recomputed from them. mul is the seed dialect's multiplier (Normal when
// absent).
func handState(v value, dealer giretra.Position) (hs giretra.HandState, mul giretra.Multiplier, err error) {
	p := &path{name: "handState"}
	hs.Current = giretra.NewTrick(dealer.Next())
	modeName, _ := v.Field("gameMode").Bytes()
	mode, ok := giretra.ParseMode(string(modeName))
	if !ok {
		return hs, 0, malformed("%s: unknown gameMode %q", p.String(), modeName)
	}
	hs.Mode = mode
	mulName, _ := v.Field("multiplier").Bytes()
	mul, _ = giretra.ParseMultiplier(string(mulName))
	done := v.Field("completedTricks")
	n := done.Len()
	if n > 8 {
		return hs, mul, malformed("%s: %d completed tricks", p.String(), n)
	}
	if n > 0 {
		hs.Completed = make([]giretra.Trick, 0, n)
	}
	seen := giretra.Set(0)
	dp := &path{name: "completedTricks"}
	i := 0
	for e := done.First(); e.Kind() != absent; e = e.Next() {
		ep := dp.elem(i)
		t, err := trick(e, &ep)
		if err != nil {
			return hs, mul, err
		}
		if !t.Complete() {
			return hs, mul, impossible("%s has %d cards", ep.String(), t.N)
		}
		if seen&t.Set() != 0 {
			return hs, mul, impossible("%s repeats a card", ep.String())
		}
		seen |= t.Set()
		if i > 0 && t.Leader != hs.Current.Leader {
			return hs, mul, impossible("%s led by %v, but %v won the trick before", ep.String(), t.Leader, hs.Current.Leader)
		}
		// Replaying the 4th card through Play keeps points and tricks consistent.
		last := t.Cards[3]
		t.N, t.Cards[3] = 3, giretra.NoCard
		hs.Current = t
		hs.Play(last)
		i++
	}
	if cur := v.Field("currentTrick"); !cur.Missing() {
		cp := &path{name: "currentTrick"}
		t, err := trick(cur, cp)
		if err != nil {
			return hs, mul, err
		}
		if t.Complete() {
			return hs, mul, impossible("currentTrick already has 4 cards")
		}
		if seen&t.Set() != 0 {
			return hs, mul, impossible("currentTrick repeats a played card")
		}
		if len(hs.Completed) > 0 && t.Leader != hs.Current.Leader {
			return hs, mul, impossible("currentTrick led by %v, but %v won the last trick", t.Leader, hs.Current.Leader)
		}
		hs.Current = t
		hs.Over = false
	}
	return hs, mul, nil
}

// action reads an action in either dialect. The seed's "Pass" is the
// engine's Accept; the seed's gameMode stands for mode and targetMode; a
// seed history entry nests the action under "action".
func action(v value, p *path) (giretra.Action, error) {
	out := giretra.Action{Mode: giretra.NoMode}
	if v.Kind() != jsonscan.Object {
		return out, typeError(p, "an object", v)
	}
	if err := shapeAction(v, p); err != nil {
		return out, err
	}
	x := v
	if inner := v.Field("action"); inner.Kind() == jsonscan.Object {
		x = inner
	}
	typeName, _ := x.Field("type").Bytes()
	t, ok := giretra.ParseActionType(string(typeName))
	if !ok {
		return out, malformed("%s: unknown action type %q", p.String(), typeName)
	}
	out.Type = t
	pp := p.field("player")
	if who, ok, err := position(v.Field("player"), &pp); err != nil {
		return out, err
	} else if ok {
		out.Player = who
	}
	if t == giretra.Accept {
		return out, nil
	}
	name, _ := x.Field("mode").Bytes()
	if target, _ := x.Field("targetMode").Bytes(); t != giretra.Announce && len(target) > 0 {
		name = target
	}
	if len(name) == 0 {
		name, _ = x.Field("gameMode").Bytes()
	}
	m, ok := giretra.ParseMode(string(name))
	if !ok {
		return out, malformed("%s: %v: unknown mode %q", p.String(), t, name)
	}
	out.Mode = m
	return out, nil
}

// negotiation reads the negotiation state: its dealer (dealer when absent)
// and the actions so far.
func negotiation(v value, dealer giretra.Position) (giretra.Negotiation, error) {
	p := &path{name: "negotiationState"}
	neg := giretra.Negotiation{Dealer: dealer}
	if v.Kind() != jsonscan.Object {
		return neg, nil
	}
	dp := p.field("dealer")
	if d, ok, err := position(v.Field("dealer"), &dp); err != nil {
		return neg, err
	} else if ok {
		neg.Dealer = d
	}
	actions := v.Field("actions")
	if n := actions.Len(); n > 0 {
		neg.Actions = make([]giretra.Action, 0, n)
	}
	ap := p.field("actions")
	i := 0
	for e := actions.First(); e.Kind() != absent; e = e.Next() {
		ep := ap.elem(i)
		a, err := action(e, &ep)
		neg.Actions = append(neg.Actions, a)
		if err != nil {
			return neg, err
		}
		i++
	}
	return neg, nil
}
