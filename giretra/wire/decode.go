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
