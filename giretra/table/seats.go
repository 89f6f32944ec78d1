package table

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/problem"
)

// Who plays a seat.
const (
	kindPerson = "you"
	kindOurs   = "bot"    // giretra/bot, in process
	kindAgent  = "agent"  // the referee's agents, by the engine's names
	kindURL    = "url"    // a bot server, called as the engine calls it
	kindFolder = "folder" // an external-bots/ folder, launched as the engine does
)

// failLimit is the consecutive failed decisions after which a bot server
// gets no more calls and the fallback plays its seat for the rest of the
// match, as the engine's web app does (ResilientPlayerAgent).
const failLimit = 3

// agentNames are the agents' names for people: the engine's display names.
var agentNames = map[string]string{"eva": "Eva", "deterministic": "Eva", "calculating": "Razazavavy", "razazavavy": "Razazavavy",
	"random": "Kialasoa", "kialasoa": "Kialasoa", "bad": "Sakabelou", "sakabelou": "Sakabelou", "noisy-eva": "noisy Eva"}

// seatSpec is a resolved seat: who plays it, and how to make its player.
type seatSpec struct {
	kind  string
	name  string
	agent string // giretra/agents name
	url   string
	dir   string
}

// resolveSeat reads one seat of the setup: "you", "bot", an agent by the
// engine's names (Eva, DeterministicPlayer, Kialasoa…), an http(s) URL,
// or the name of a bot in external-bots/. Names other than "you" and
// "bot" are the referee's to resolve, as giretra-ref resolves them; a
// path is refused (the page names a bot, it does not point the server at
// folders).
func resolveSeat(reg *referee.Registry, spec string) (seatSpec, error) {
	spec = strings.TrimSpace(spec)
	switch strings.ToLower(spec) {
	case "":
		return seatSpec{}, problem.Impossiblef("empty: want you, bot, an agent (Eva, Razazavavy, Kialasoa, Sakabelou), a bot URL or an external-bots name")
	case kindPerson:
		return seatSpec{kind: kindPerson, name: "You"}, nil
	case kindOurs, "gamebot":
		return seatSpec{kind: kindOurs, name: "gamebot"}, nil
	}
	if strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://") {
		u, err := url.Parse(spec)
		if err != nil || u.Host == "" {
			return seatSpec{}, problem.Impossiblef("%q is not a bot URL (http://host:port)", spec)
		}
		return seatSpec{kind: kindURL, name: u.Host, url: spec}, nil
	}
	if strings.ContainsAny(spec, `/\`) || spec == "." || spec == ".." {
		return seatSpec{}, problem.Impossiblef("%q: name a bot of external-bots/ by its name, not by a path", spec)
	}
	bs, err := reg.Resolve(spec)
	if err != nil {
		return seatSpec{}, problem.Impossiblef("%v", err)
	}
	switch {
	case bs.Agent != "":
		name := agentNames[bs.Agent]
		if name == "" {
			name = bs.Agent
		}
		return seatSpec{kind: kindAgent, name: name, agent: bs.Agent}, nil
	case bs.URL != "":
		return seatSpec{kind: kindURL, name: bs.URL, url: bs.URL}, nil
	}
	return seatSpec{kind: kindFolder, name: spec, dir: bs.Dir}, nil
}

// launched is a bot server the table started from its folder.
type launched struct {
	client *remote.Client
	stop   func()
}

// open makes the seat's player. Bot servers launched from a folder are
// started here (the engine's launch: init, health, smoke test) and
// stopped by the returned function.
func (s *seatSpec) open(ctx context.Context, pos giretra.Position, seed int64, explain func(bot.CardValues)) (giretra.Player, *launched, error) {
	switch s.kind {
	case kindOurs:
		b := bot.New(bot.Config{})
		b.Explain(explain)
		return b, nil, nil
	case kindAgent:
		p, err := agents.New(s.agent, rand.New(rand.NewPCG(uint64(seed)+10000, uint64(pos))))
		return p, nil, err
	case kindURL:
		c := remote.NewClient(s.url, wire.Engine, referee.AllEvents(), 1)
		return remote.NewSeat(c, pos, nil), &launched{client: c, stop: func() {}}, nil
	case kindFolder:
		l, err := referee.LaunchBot(ctx, s.dir)
		if err != nil {
			return nil, nil, problem.Impossiblef("launching %s: %v", s.name, err)
		}
		s.name = l.Name
		c := remote.NewClient(l.URL, wire.Engine, l.Events, 1)
		return remote.NewSeat(c, pos, nil), &launched{client: c, stop: l.Stop}, nil
	}
	return nil, nil, fmt.Errorf("internal: seat kind %q", s.kind)
}

// seat wraps a seat's player for the table: it keeps the table's model
// of the game up to date with each decision, paces the bots when a person
// watches, answers for a failing bot with the engine's fallback, and
// records a bot server's calls.
type seat struct {
	t      *Table
	pos    giretra.Position
	inner  giretra.Player
	kind   string
	remote *remote.Seat // the inner player, for a bot server
	fails  int
	dead   bool // failed failLimit times in a row: the fallback plays
	mul    giretra.Multiplier
}

// failed counts a bot's failed decision and says why in the log.
func (s *seat) failed(what string, err error) {
	s.fails++
	msg := fmt.Sprintf("%s failed to choose a %s (%v): the fallback plays it", s.t.seatName(s.pos), what, err)
	if s.remote != nil && s.fails >= failLimit {
		s.dead = true
		msg += fmt.Sprintf("; after %d failures in a row the fallback plays this seat to the end", failLimit)
	}
	s.t.say(msg)
}

// call records a bot server's decision call.
func (s *seat) call(kind, endpoint string, request func() any, answer any, d time.Duration, err error) {
	if s.remote == nil {
		return
	}
	req, _ := json.Marshal(request())
	var ans json.RawMessage
	if answer != nil {
		ans, _ = json.Marshal(answer)
	}
	pos := s.pos
	s.t.recordOp(func(w *record.Writer) { w.Call(pos, kind, endpoint, json.RawMessage(req), rawOrNil(ans), d, err) })
}

func rawOrNil(b json.RawMessage) any {
	if b == nil {
		return nil
	}
	return b
}

func (s *seat) ChooseCut(ctx context.Context, pos giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	deal := len(m.Deals)
	if c, ok := s.t.fixedCut(deal); ok {
		// A replay deals the cards of the match it repeats: its cuts are
		// those, and nobody is asked.
		s.t.applyCut(pos, c, true)
		return c, nil
	}
	if s.kind == kindPerson {
		return s.inner.ChooseCut(ctx, pos, m) // applied by Act
	}
	if err := s.t.gate(ctx); err != nil {
		return giretra.Cut{}, err
	}
	var c giretra.Cut
	var err error
	if !s.dead {
		start := time.Now() // from the slot: waiting for one is not the bot's time
		if derr := s.t.env.Decide(ctx, func() { start = time.Now(); c, err = s.inner.ChooseCut(ctx, pos, m) }); derr != nil {
			err = derr
		}
		var ans any
		if err == nil {
			ans = wire.CutAnswer{Position: c.Position, FromTop: c.FromTop}
		}
		s.call(record.KindCut, "choose-cut", func() any { return wire.EncodeCut(wire.Engine, m) }, ans, time.Since(start), err)
	}
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	switch {
	case s.dead:
		c = giretra.FallbackCut()
	case err != nil || !c.Valid():
		if err == nil {
			err = fmt.Errorf("cut at %d, outside 6..26", c.Position)
		}
		s.failed("cut", err)
		c = giretra.FallbackCut()
	default:
		s.fails = 0
	}
	s.t.applyCut(pos, c, false)
	return c, nil
}

func (s *seat) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	if s.kind == kindPerson {
		return s.inner.ChooseAction(ctx, v)
	}
	if err := s.t.gate(ctx); err != nil {
		return giretra.Action{}, err
	}
	var a giretra.Action
	var err error
	if !s.dead {
		start := time.Now() // from the slot: waiting for one is not the bot's time
		if derr := s.t.env.Decide(ctx, func() { start = time.Now(); a, err = s.inner.ChooseAction(ctx, v) }); derr != nil {
			err = derr
		}
		var ans any
		if err == nil {
			ans = wire.FromValidAction(a)
		}
		s.call(record.KindNegotiation, "choose-negotiation-action", func() any { return wire.EncodeBid(wire.Engine, v) }, ans, time.Since(start), err)
	}
	if ctx.Err() != nil {
		return a, ctx.Err()
	}
	chosen, ok := offered(a, v.Valid)
	switch {
	case s.dead:
		chosen = giretra.FallbackAction(v.Valid)
	case err != nil || !ok:
		if err == nil {
			err = fmt.Errorf("%v is not among the offered actions", a)
		}
		s.failed("bid", err)
		chosen = giretra.FallbackAction(v.Valid)
	default:
		s.fails = 0
	}
	chosen.Player = v.Seat
	s.t.applyBid(chosen)
	return chosen, nil
}

// offered is the offered action a stands for.
func offered(a giretra.Action, valid []giretra.Action) (giretra.Action, bool) {
	for _, o := range valid {
		if o.SameChoice(a) {
			return o, true
		}
	}
	return giretra.Action{}, false
}

func (s *seat) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	if s.kind == kindPerson {
		return s.inner.ChooseCard(ctx, v)
	}
	if err := s.t.gate(ctx); err != nil {
		return giretra.NoCard, err
	}
	c, err := giretra.NoCard, error(nil)
	if !s.dead {
		start := time.Now() // from the slot: waiting for one is not the bot's time
		if derr := s.t.env.Decide(ctx, func() { start = time.Now(); c, err = s.inner.ChooseCard(ctx, v) }); derr != nil {
			err = derr
		}
		var ans any
		if c <= 31 {
			ans = wire.FromCard(c)
		}
		s.call(record.KindCardPlay, "choose-card", func() any { return wire.EncodeCard(wire.Engine, v, s.mul) }, ans, time.Since(start), err)
	}
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	switch {
	case s.dead:
		c = giretra.FallbackCard(v.Valid)
	case err != nil || c > 31 || !v.Valid.Has(c):
		if err == nil {
			err = fmt.Errorf("%v is not among the valid cards", c)
		}
		s.failed("card", err)
		c = giretra.FallbackCard(v.Valid)
	default:
		s.fails = 0
	}
	s.t.applyCard(v.Seat, c)
	return c, nil
}

// Notify tells the table the game's events (once, through Bottom, the
// first seat told) and passes them on; a bot server's notifications are
// recorded.
func (s *seat) Notify(ctx context.Context, pos giretra.Position, e *giretra.Event) error {
	if pos == giretra.Bottom {
		s.t.onEvent(e)
	}
	switch e.Kind { // the deal's multiplier, for the card requests recorded
	case giretra.DealStarted:
		s.mul = giretra.Normal
	case giretra.NegotiationCompleted:
		if st, err := e.Negotiation.State(); err == nil {
			if c, ok := st.Contract(); ok {
				s.mul = c.Multiplier
			}
		}
	}
	if s.dead {
		return nil
	}
	if s.remote == nil || !s.remote.WillSend(e.Kind) {
		return s.inner.Notify(ctx, pos, e)
	}
	start := time.Now()
	err := s.inner.Notify(ctx, pos, e)
	d := time.Since(start)
	s.t.recordOp(func(w *record.Writer) {
		w.Call(pos, record.KindNotification, "notify/"+e.Kind.String(), nil, nil, d, err)
	})
	return err
}

// person is the seat of the person at the table: each decision waits for
// the page's action (Table.Act), which the table checks against the
// options offered here.
type person struct{ t *Table }

func (p person) ChooseCut(ctx context.Context, _ giretra.Position, _ *giretra.MatchState) (giretra.Cut, error) {
	a, err := p.t.ask(ctx, decision{kind: decideCut})
	return a.cut, err
}

func (p person) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := p.t.ask(ctx, decision{kind: decideBid, bids: append([]giretra.Action(nil), v.Valid...)})
	return a.bid, err
}

func (p person) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	a, err := p.t.ask(ctx, decision{kind: decideCard, cards: v.Valid})
	return a.card, err
}

// Notify holds the match after each deal but the last until the person
// has seen the deal's summary and asks for the next.
func (p person) Notify(ctx context.Context, _ giretra.Position, e *giretra.Event) error {
	if e.Kind == giretra.DealEnded && e.Match != nil && !e.Match.Complete {
		_, err := p.t.ask(ctx, decision{kind: decideNext})
		return err
	}
	return nil
}
