package wire

import (
	"strconv"
	"sync"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/jsonscan"
	"github.com/botarena/gamebot/internal/problem"
)

// The decoders below read the requests a bot receives, in either dialect,
// straight into the giretra model: one strict scan of the body
// (internal/jsonscan), a check of every field's type, then the conversion
// of the parts the bot uses. Unknown fields are ignored; null reads as
// absent; names match as encoding/json matches them. Bad shapes, unknown
// names and missing required fields are Malformed (400); a well-formed
// request that cannot be answered or contradicts itself is Impossible
// (422); a request that is both is Malformed. The reference they are held
// to, field for field, is reference_test.go (the same decoding on
// encoding/json).

var (
	malformed  = problem.Malformedf
	impossible = problem.Impossiblef
)

type value = jsonscan.Value

const absent = jsonscan.Absent

// path names a field for error messages. It lives in the callers' stack
// frames and is spelled out only when an error is reported, so that a good
// request costs no string building.
type path struct {
	parent *path
	name   string // a field; "" for an array element
	index  int
}

func (p *path) String() string {
	// Iterative, not recursive: a recursive method would make every path
	// escape to the heap.
	var parts [16]*path
	n := 0
	for q := p; q != nil && n < len(parts); q = q.parent {
		parts[n] = q
		n++
	}
	var b []byte
	for i := n - 1; i >= 0; i-- {
		q := parts[i]
		switch {
		case q.name == "":
			b = strconv.AppendInt(append(b, '['), int64(q.index), 10)
			b = append(b, ']')
		case len(b) > 0:
			b = append(append(b, '.'), q.name...)
		default:
			b = append(b, q.name...)
		}
	}
	return string(b)
}

func (p *path) field(name string) path { return path{parent: p, name: name} }
func (p *path) elem(i int) path        { return path{parent: p, index: i} }

func typeError(p *path, want string, v value) error {
	return jsonscan.TypeError(p.String(), want, v)
}

// docs recycles scan state: decoding allocates little more than the model.
var docs = sync.Pool{New: func() any { return new(jsonscan.Doc) }}

// parse scans b and calls f with its root, which must be an object.
func parse(b []byte, f func(root value) error) error {
	d := docs.Get().(*jsonscan.Doc)
	defer docs.Put(d)
	if err := d.Parse(b); err != nil {
		return err
	}
	root := d.Root()
	if root.Kind() != jsonscan.Object {
		return jsonscan.TypeError("request", "an object", root)
	}
	return f(root)
}

// Field readers: absent or null reads as the zero value; any other value
// of the wrong type is Malformed.

func str(v value, p *path) ([]byte, error) {
	if v.Missing() {
		return nil, nil
	}
	b, ok := v.Bytes()
	if !ok {
		return nil, typeError(p, "a string", v)
	}
	return b, nil
}

func integer(v value, p *path) (int, error) {
	if v.Missing() {
		return 0, nil
	}
	n, ok := v.Int()
	if !ok {
		return 0, typeError(p, "an integer", v)
	}
	return n, nil
}

func boolean(v value, p *path) (bool, error) {
	if v.Missing() {
		return false, nil
	}
	b, ok := v.Bool()
	if !ok {
		return false, typeError(p, "a boolean", v)
	}
	return b, nil
}

// object reports whether v is an object (false when absent or null).
func object(v value, p *path) (bool, error) {
	if v.Missing() {
		return false, nil
	}
	if v.Kind() != jsonscan.Object {
		return false, typeError(p, "an object", v)
	}
	return true, nil
}

// array reports whether v is an array (false when absent or null).
func array(v value, p *path) (bool, error) {
	if v.Missing() {
		return false, nil
	}
	if v.Kind() != jsonscan.Array {
		return false, typeError(p, "an array", v)
	}
	return true, nil
}

// Shape checks: the type of every field a request may carry, whether or
// not the bot uses it, so that every request is held to the same shape.

func shapeStrings(v value, p *path, names ...string) error {
	for _, name := range names {
		fp := p.field(name)
		if _, err := str(v.Field(name), &fp); err != nil {
			return err
		}
	}
	return nil
}

func shapeInts(v value, p *path, names ...string) error {
	for _, name := range names {
		fp := p.field(name)
		if _, err := integer(v.Field(name), &fp); err != nil {
			return err
		}
	}
	return nil
}

func shapeCard(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	return shapeStrings(v, p, "rank", "suit")
}

func shapeCards(v value, p *path) error {
	if _, err := array(v, p); err != nil {
		return err
	}
	i := 0
	for e := v.First(); e.Kind() != absent; e = e.Next() {
		ep := p.elem(i)
		if err := shapeCard(e, &ep); err != nil {
			return err
		}
		i++
	}
	return nil
}

func shapeMatch(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeInts(v, p, "targetScore", "team1MatchPoints", "team2MatchPoints"); err != nil {
		return err
	}
	if err := shapeStrings(v, p, "currentDealer", "dealer"); err != nil {
		return err
	}
	ip := p.field("isComplete")
	if _, err := boolean(v.Field("isComplete"), &ip); err != nil {
		return err
	}
	sp := p.field("score")
	if ok, err := object(v.Field("score"), &sp); err != nil {
		return err
	} else if ok {
		if err := shapeInts(v.Field("score"), &sp, "team1", "team2"); err != nil {
			return err
		}
	}
	dp := p.field("completedDeals")
	deals := v.Field("completedDeals")
	if _, err := array(deals, &dp); err != nil {
		return err
	}
	i := 0
	for e := deals.First(); e.Kind() != absent; e = e.Next() {
		ep := dp.elem(i)
		if ok, err := object(e, &ep); err != nil {
			return err
		} else if ok {
			if err := shapeStrings(e, &ep, "gameMode", "multiplier", "announcerTeam"); err != nil {
				return err
			}
		}
		i++
	}
	return nil
}

func shapeTrick(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "leader"); err != nil {
		return err
	}
	for _, list := range [...]string{"playedCards", "cards"} {
		lp := p.field(list)
		cards := v.Field(list)
		if _, err := array(cards, &lp); err != nil {
			return err
		}
		i := 0
		for e := cards.First(); e.Kind() != absent; e = e.Next() {
			ep := lp.elem(i)
			if ok, err := object(e, &ep); err != nil {
				return err
			} else if ok {
				if err := shapeStrings(e, &ep, "player"); err != nil {
					return err
				}
				cp := ep.field("card")
				if err := shapeCard(e.Field("card"), &cp); err != nil {
					return err
				}
			}
			i++
		}
	}
	return nil
}

func shapeHand(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "gameMode", "multiplier"); err != nil {
		return err
	}
	cp := p.field("currentTrick")
	if err := shapeTrick(v.Field("currentTrick"), &cp); err != nil {
		return err
	}
	dp := p.field("completedTricks")
	done := v.Field("completedTricks")
	if _, err := array(done, &dp); err != nil {
		return err
	}
	i := 0
	for e := done.First(); e.Kind() != absent; e = e.Next() {
		ep := dp.elem(i)
		if err := shapeTrick(e, &ep); err != nil {
			return err
		}
		i++
	}
	return nil
}

func shapeAction(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "type", "player", "mode", "targetMode", "gameMode"); err != nil {
		return err
	}
	ap := p.field("action")
	return shapeAction(v.Field("action"), &ap)
}

func shapeNegotiation(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "dealer"); err != nil {
		return err
	}
	ap := p.field("actions")
	actions := v.Field("actions")
	if _, err := array(actions, &ap); err != nil {
		return err
	}
	i := 0
	for e := actions.First(); e.Kind() != absent; e = e.Next() {
		ep := ap.elem(i)
		if err := shapeAction(e, &ep); err != nil {
			return err
		}
		i++
	}
	return nil
}

// required reports a required field that is absent or null.
func required(root value, names ...string) error {
	for _, name := range names {
		if root.Field(name).Missing() {
			return malformed("invalid request: %s: is required", name)
		}
	}
	return nil
}

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

// Create is a decoded POST /api/sessions: the engine sends position,
// matchId and maybe seed; the seed document only matchId (its sessions
// play Bottom).
type Create struct {
	Seat    giretra.Position
	MatchID string
	Seed    *int64
}

// DecodeCreate decodes a session creation.
func DecodeCreate(b []byte) (Create, error) {
	c := Create{Seat: giretra.Bottom}
	err := parse(b, func(root value) error {
		if err := shapeStrings(root, nil, "position", "matchId"); err != nil {
			return err
		}
		if s := root.Field("seed"); !s.Missing() {
			f, ok := s.Float()
			if !ok || f != float64(int64(f)) {
				return jsonscan.TypeError("seed", "an integer", s)
			}
			n := int64(f)
			c.Seed = &n
		}
		id, _ := root.Field("matchId").Bytes()
		if len(id) == 0 {
			return malformed("invalid request: matchId: is required")
		}
		if len(id) > 256 {
			return malformed("invalid request: matchId: must be at most 256 long")
		}
		c.MatchID = string(id)
		if pos, _ := root.Field("position").Bytes(); len(pos) > 0 {
			seat, ok := giretra.ParsePosition(string(pos))
			if !ok {
				return malformed("invalid request: position: must be one of Bottom Left Top Right, not %q", pos)
			}
			c.Seat = seat
		}
		return nil
	})
	return c, err
}

var (
	pathMatch = &path{name: "matchState"}
	pathHand  = &path{name: "handState"}
	pathNeg   = &path{name: "negotiationState"}
	pathCards = &path{name: "hand"}
	pathCard  = &path{name: "card"}
)

// DecodeCut decodes a choose-cut request (its match state; the seed
// document also sends the hand).
func DecodeCut(b []byte) (giretra.MatchState, error) {
	var ms giretra.MatchState
	err := parse(b, func(root value) error {
		if err := shapeMatch(root.Field("matchState"), pathMatch); err != nil {
			return err
		}
		var err error
		ms, err = matchState(root.Field("matchState"))
		return err
	})
	return ms, err
}

// Bid is a decoded choose-negotiation-action request.
type Bid struct {
	View  giretra.BidView
	Neg   giretra.Negotiation
	Match giretra.MatchState
	// Raw holds each offered action as sent, so the answer can echo the
	// chosen one field for field, whatever the dialect. It aliases the
	// request body.
	Raw [][]byte
}

// DecodeBid decodes a bid request for the player at seat.
func DecodeBid(b []byte, seat giretra.Position) (*Bid, error) {
	bid := &Bid{}
	err := parse(b, func(root value) error {
		if err := shapeCards(root.Field("hand"), pathCards); err != nil {
			return err
		}
		if err := shapeNegotiation(root.Field("negotiationState"), pathNeg); err != nil {
			return err
		}
		if err := shapeMatch(root.Field("matchState"), pathMatch); err != nil {
			return err
		}
		vp := &path{name: "validActions"}
		valid := root.Field("validActions")
		if _, err := array(valid, vp); err != nil {
			return err
		}
		if err := required(root, "hand", "validActions"); err != nil {
			return err
		}
		var err error
		if bid.Match, err = matchState(root.Field("matchState")); err != nil {
			return err
		}
		h, err := cardSet(root.Field("hand"), pathCards)
		if err != nil {
			return err
		}
		if bid.Neg, err = negotiation(root.Field("negotiationState"), bid.Match.Dealer); err != nil {
			return err
		}
		n := valid.Len()
		if n == 0 {
			return impossible("validActions is empty: there is nothing to choose")
		}
		actions := make([]giretra.Action, 0, n)
		bid.Raw = make([][]byte, 0, n)
		i := 0
		for e := valid.First(); e.Kind() != absent; e = e.Next() {
			ep := vp.elem(i)
			a, err := action(e, &ep)
			if err != nil {
				return err
			}
			a.Player = seat
			actions = append(actions, a)
			bid.Raw = append(bid.Raw, e.Raw())
			i++
		}
		bid.View = giretra.BidView{Seat: seat, Hand: h, Negotiation: &bid.Neg, Match: &bid.Match, Valid: actions}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return bid, nil
}

// Play is a decoded choose-card request.
type Play struct {
	View       giretra.PlayView
	State      giretra.HandState
	Match      giretra.MatchState
	Multiplier giretra.Multiplier // seed dialect only
	// Raw[c] is the offered card c as sent, for echoing. It aliases the
	// request body.
	Raw map[giretra.Card][]byte
}

// DecodePlay decodes a card request for the player at seat.
func DecodePlay(b []byte, seat giretra.Position) (*Play, error) {
	p := &Play{}
	err := parse(b, func(root value) error {
		if err := shapeCards(root.Field("hand"), pathCards); err != nil {
			return err
		}
		if err := shapeHand(root.Field("handState"), pathHand); err != nil {
			return err
		}
		if err := shapeMatch(root.Field("matchState"), pathMatch); err != nil {
			return err
		}
		vp := &path{name: "validPlays"}
		plays := root.Field("validPlays")
		if _, err := array(plays, vp); err != nil {
			return err
		}
		if err := required(root, "hand", "handState", "validPlays"); err != nil {
			return err
		}
		var err error
		if p.Match, err = matchState(root.Field("matchState")); err != nil {
			return err
		}
		if p.State, p.Multiplier, err = handState(root.Field("handState"), p.Match.Dealer); err != nil {
			return err
		}
		hand, err := cardSet(root.Field("hand"), pathCards)
		if err != nil {
			return err
		}
		n := plays.Len()
		if n == 0 {
			return impossible("validPlays is empty: there is nothing to play")
		}
		p.Raw = make(map[giretra.Card][]byte, n)
		var valid giretra.Set
		i := 0
		for e := plays.First(); e.Kind() != absent; e = e.Next() {
			ep := vp.elem(i)
			c, err := card(e, &ep)
			if err != nil {
				return err
			}
			if _, dup := p.Raw[c]; !dup {
				p.Raw[c] = e.Raw()
			}
			valid = valid.With(c)
			i++
		}
		if p.State.Played()&hand != 0 {
			return impossible("hand holds a card that was already played")
		}
		p.View = giretra.PlayView{Seat: seat, Hand: hand | valid, State: &p.State, Match: &p.Match, Valid: valid}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Notification is a decoded notification (only what the bot uses).
type Notification struct {
	Event giretra.Event
	Match giretra.MatchState
	Neg   giretra.Negotiation
	Hand  giretra.HandState
}

// DecodeNotification decodes a notification body of kind k. Every body is
// checked for its shape; the parts the bot uses are converted.
func DecodeNotification(k giretra.EventKind, b []byte) (*Notification, error) {
	n := &Notification{}
	err := parse(b, func(root value) error {
		negv, hsv, cv := root.Field("negotiationState"), root.Field("handState"), root.Field("card")
		if err := shapeMatch(root.Field("matchState"), pathMatch); err != nil {
			return err
		}
		if err := shapeNegotiation(negv, pathNeg); err != nil {
			return err
		}
		if err := shapeHand(hsv, pathHand); err != nil {
			return err
		}
		if err := shapeCard(cv, pathCard); err != nil {
			return err
		}
		if err := shapeStrings(root, nil, "player"); err != nil {
			return err
		}
		var err error
		if n.Match, err = matchState(root.Field("matchState")); err != nil {
			return err
		}
		n.Event = giretra.Event{Kind: k, Match: &n.Match}
		if k == giretra.NegotiationCompleted && !negv.Missing() {
			if n.Neg, err = negotiation(negv, n.Match.Dealer); err != nil {
				return err
			}
			n.Event.Negotiation = &n.Neg
		}
		if !hsv.Missing() && (k == giretra.CardPlayed || k == giretra.TrickCompleted || k == giretra.DealEnded) {
			if n.Hand, _, err = handState(hsv, n.Match.Dealer); err != nil {
				return err
			}
			n.Event.Hand = &n.Hand
		}
		if k != giretra.CardPlayed || cv.Missing() {
			return nil
		}
		if n.Event.Card, err = card(cv, pathCard); err != nil {
			return err
		}
		player, _ := root.Field("player").Bytes()
		who, ok := giretra.ParsePosition(string(player))
		if !ok {
			return malformed("player: unknown position %q", player)
		}
		n.Event.Player = who
		return nil
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}
