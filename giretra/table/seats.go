package table

import (
	"context"
	"encoding/json"
	"errors"
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
	tables "github.com/botarena/gamebot/internal/table"
)

// Who plays a seat.
const (
	kindPerson = "you"    // a person: the table's creator, or a guest with the seat's link
	kindGuest  = "person" // in a setup: a seat kept for someone else (a kindPerson at the table)
	kindOurs   = "bot"    // giretra/bot, in process
	kindAgent  = "agent"  // the referee's agents, by the engine's names
	kindURL    = "url"    // a bot server, called as the engine calls it
	kindFolder = "folder" // a bot of Config.BotsDir, launched as the engine does
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
	url   *url.URL
	dir   string
}

// resolveSeat reads one seat of the setup: "you", "person", "bot", an
// agent by the engine's names, a bot server's URL the config allows, or
// a bot of the config's folder by its name. Nothing else: a page names a
// bot from the lists it was offered, it never points the server at a
// folder or an address of its own choosing.
func (g *game) resolveSeat(spec string) (seatSpec, error) {
	spec = strings.TrimSpace(spec)
	switch strings.ToLower(spec) {
	case kindPerson:
		return seatSpec{kind: kindPerson}, nil
	case kindGuest, "friend":
		return seatSpec{kind: kindGuest}, nil
	case kindOurs, "gamebot":
		return seatSpec{kind: kindOurs, name: "gamebot"}, nil
	}
	if strings.Contains(spec, "://") {
		if g.cfg.BotHosts.Off() {
			return seatSpec{}, problem.New(problem.Forbidden, "bot URLs are off on this server (gamebot play -bot-hosts allows them)")
		}
		u, err := g.cfg.BotHosts.Check(spec)
		if err != nil {
			return seatSpec{}, err
		}
		return seatSpec{kind: kindURL, name: u.Host, url: u}, nil
	}
	for _, b := range g.bots {
		if strings.EqualFold(b.AgentName, spec) || strings.EqualFold(b.DisplayName, spec) {
			return seatSpec{kind: kindFolder, name: b.AgentName, dir: b.Dir}, nil
		}
	}
	if bs, ok := referee.Agent(spec); ok && spec != "" {
		name := agentNames[bs.Agent]
		if name == "" {
			name = bs.Agent
		}
		return seatSpec{kind: kindAgent, name: name, agent: bs.Agent}, nil
	}
	return seatSpec{}, bad("%s", g.unknown(spec))
}

// unknown says that spec names no player, and lists what may be chosen.
func (g *game) unknown(spec string) string {
	names := []string{"you", "person", "bot"}
	for _, a := range referee.EngineAgents() {
		names = append(names, a[1])
	}
	for _, b := range g.bots {
		names = append(names, b.AgentName)
	}
	msg := fmt.Sprintf("no player %q: choose %s", spec, strings.Join(names, ", "))
	if !g.cfg.BotHosts.Off() {
		msg += ", or a bot URL on " + g.cfg.BotHosts.Describe()
	}
	return msg
}

// launched is a bot server the table started from its folder.
type launched struct {
	client *remote.Client
	stop   func()
}

// open makes the seat's player. Bot servers launched from a folder are
// started here (the engine's launch: init, health, smoke test) and
// stopped by the returned function; a bot URL is called through hosts'
// dialer, redirects refused.
func (s *seatSpec) open(ctx context.Context, pos giretra.Position, seed int64, explain func(bot.CardValues), hosts tables.BotHosts) (giretra.Player, *launched, error) {
	switch s.kind {
	case kindOurs:
		b := bot.New(bot.Config{})
		b.Explain(explain)
		return b, nil, nil
	case kindAgent:
		p, err := agents.New(s.agent, rand.New(rand.NewPCG(uint64(seed)+10000, uint64(pos))))
		return p, nil, err
	case kindURL:
		c := remote.NewClient(s.url.String(), wire.Engine, referee.AllEvents(), 1)
		c.Restrict(hosts.Dial(s.url))
		return remote.NewSeat(c, pos, nil), &launched{client: c, stop: func() {}}, nil
	case kindFolder:
		l, err := referee.LaunchBot(ctx, s.dir)
		if err != nil {
			return nil, nil, problem.Impossiblef("the bot %s could not be started: %s", s.name, launchReason(err))
		}
		s.name = l.Name
		c := remote.NewClient(l.URL, wire.Engine, l.Events, 1)
		return remote.NewSeat(c, pos, nil), &launched{client: c, stop: l.Stop}, nil
	}
	return nil, nil, fmt.Errorf("seat kind %q", s.kind)
}

// launchReason is why a bot of the folder did not start, without what it
// printed or answered.
func launchReason(err error) string {
	var he *remote.HTTPError
	if errors.As(err, &he) {
		return remote.Reason(err)
	}
	return "its bot.meta.json, its build or its launch failed (run giretra-ref validate on its folder to see why)"
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

// failed counts a bot's failed decision and says why in the log: for a
// bot server, its status or a fixed reason, never what it sent.
func (s *seat) failed(what string, err error) {
	s.fails++
	why := err.Error()
	if s.remote != nil {
		why = remote.Reason(err)
	}
	dead := s.remote != nil && s.fails >= failLimit
	s.dead = dead
	pos := s.pos
	s.t.say(func(r reader) string {
		msg := r.t("log.failed."+what, s.t.who(r, pos), why)
		if dead {
			msg += " " + r.t("log.dead", failLimit)
		}
		return msg
	})
}

// call records a bot server's decision call: the error as Reason says
// it, for the record is read by people too (the table's review).
func (s *seat) call(kind, endpoint string, request func() any, answer any, d time.Duration, err error) {
	if s.remote == nil {
		return
	}
	if err != nil {
		err = errors.New(remote.Reason(err))
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
	var rerr error
	if err != nil {
		rerr = errors.New(remote.Reason(err))
	}
	s.t.recordOp(func(w *record.Writer) {
		w.Call(pos, record.KindNotification, "notify/"+e.Kind.String(), nil, nil, d, rerr)
	})
	return err
}

// person is a person's seat: each decision waits for the page's action
// (Table.Act, from that seat), which the table checks against the
// options offered here.
type person struct {
	t   *Table
	pos giretra.Position
}

func (p person) ChooseCut(ctx context.Context, _ giretra.Position, _ *giretra.MatchState) (giretra.Cut, error) {
	a, err := p.t.ask(ctx, decision{seat: p.pos, kind: decideCut})
	return a.cut, err
}

func (p person) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	a, err := p.t.ask(ctx, decision{seat: p.pos, kind: decideBid, bids: append([]giretra.Action(nil), v.Valid...)})
	return a.bid, err
}

func (p person) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	a, err := p.t.ask(ctx, decision{seat: p.pos, kind: decideCard, cards: v.Valid})
	return a.card, err
}

// Notify holds the match after each deal but the last until the person
// has seen the deal's summary and asks for the next.
func (p person) Notify(ctx context.Context, _ giretra.Position, e *giretra.Event) error {
	if e.Kind == giretra.DealEnded && e.Match != nil && !e.Match.Complete {
		_, err := p.t.ask(ctx, decision{seat: p.pos, kind: decideNext})
		return err
	}
	return nil
}
