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
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/giretra/words"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

// Who plays a seat.
const (
	kindPerson = "you"    // a person: the table's creator, or a guest with the seat's link
	kindGuest  = "person" // in a setup: a seat kept for someone else (a kindPerson at the table)
	kindOurs   = "bot"    // giretra/bot, in process
	kindAgent  = "agent"  // giretra/agents, by the engine's names
	kindURL    = "url"    // a bot server, called as the engine calls it
	kindFolder = "folder" // a bot of Config.BotsDir, launched as the engine does
)

// failLimit is the consecutive failed decisions after which a bot server
// gets no more calls and the fallback plays its seat for the rest of the
// match.
const failLimit = players.FailLimit

// agentNames are the agents' names for people: the engine's display names.
var agentNames = map[string]string{"eva": "Eva", "deterministic": "Eva", "calculating": "Razazavavy", "razazavavy": "Razazavavy",
	"random": "Kialasoa", "kialasoa": "Kialasoa", "bad": "Sakabelou", "sakabelou": "Sakabelou", "noisy-eva": "noisy Eva", "bold-eva": "bold Eva"}

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
func (g *game) resolveSeat(w words.Words, spec string) (seatSpec, error) {
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
			return seatSpec{}, problem.New(problem.Forbidden, "%s", w.T("setup.urlsOff"))
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
	if e, ok := players.Agent(spec); ok && spec != "" {
		name := agentNames[e.Agent]
		if name == "" {
			name = e.Agent
		}
		return seatSpec{kind: kindAgent, name: name, agent: e.Agent}, nil
	}
	return seatSpec{}, problem.Malformedf("%s", g.unknown(w, spec))
}

// unknown says that spec names no player, and lists what may be chosen.
func (g *game) unknown(w words.Words, spec string) string {
	names := []string{"you", "person", "bot"}
	for _, a := range players.EngineAgents() {
		names = append(names, a[1])
	}
	for _, b := range g.bots {
		names = append(names, b.AgentName)
	}
	if !g.cfg.BotHosts.Off() {
		return w.T("setup.unknownOrURL", spec, strings.Join(names, ", "), g.cfg.BotHosts.Describe())
	}
	return w.T("setup.unknown", spec, strings.Join(names, ", "))
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
		c := remote.NewClient(s.url.String(), wire.Engine, players.AllEvents(), 1)
		c.Restrict(hosts.Dial(s.url))
		return remote.NewSeat(c, pos, nil), &launched{client: c, stop: func() {}}, nil
	case kindFolder:
		l, err := players.Launch(ctx, s.dir, nil)
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

// seat is a seat's player at the table. A person's decisions wait for
// the page; a bot's run through players.Seat, which times them, records
// a bot server's calls with its errors as remote.Reason says them, and
// answers for a failing bot with the engine's fallback. seat paces the
// bots when a person watches, keeps the table's model of the game up to
// date with each decision, and says in the log why a bot failed.
type seat struct {
	t     *Table
	pos   giretra.Position
	inner giretra.Player
	kind  string
	w     *players.Seat // inner as watched runs it
}

// watched is the seat's player as players.Seat runs it, made on first
// use.
func (s *seat) watched() *players.Seat {
	if s.w == nil {
		w := players.NewSeat(s.pos, s.inner, wire.Engine)
		w.Record, w.Run = recorder{s.t}, s.t.env.Decide
		w.Fallback, w.Redact, w.Failed = true, true, s.failed
		s.w = w
	}
	return s.w
}

// failLog are the log's keys of a failed decision, by record kind.
var failLog = map[string]string{record.KindCut: "log.failed.cut", record.KindNegotiation: "log.failed.bid", record.KindCardPlay: "log.failed.card"}

// failed says in the log why a bot's decision failed: for a bot server,
// its status or a fixed reason, never what it sent.
func (s *seat) failed(f players.Failure) {
	pos := s.pos
	s.t.say(func(r reader) string {
		msg := r.T(failLog[f.Kind], s.t.who(r, pos), f.Why)
		if f.Dead {
			msg += " " + r.T("log.dead", failLimit)
		}
		return msg
	})
}

// recorder keeps a bot server's calls in the table's record. The
// request and answer are encoded at once: the record is written later,
// and the states they come from change as the match goes on.
type recorder struct{ t *Table }

func (r recorder) Call(pos giretra.Position, kind, endpoint string, request, answer any, d time.Duration, err error) int {
	var req, ans json.RawMessage
	if request != nil {
		req, _ = json.Marshal(request)
	}
	if answer != nil {
		ans, _ = json.Marshal(answer)
	}
	r.t.recordOp(func(w *record.Writer) { w.Call(pos, kind, endpoint, rawOrNil(req), rawOrNil(ans), d, err) })
	return 0
}

func rawOrNil(b json.RawMessage) any {
	if b == nil {
		return nil
	}
	return b
}

func (s *seat) ChooseCut(ctx context.Context, pos giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	if c, ok := s.t.fixedCut(len(m.Deals)); ok {
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
	c, err := s.watched().ChooseCut(ctx, pos, m)
	if err != nil {
		return c, err
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
	a, err := s.watched().ChooseAction(ctx, v)
	if err != nil {
		return a, err
	}
	s.t.applyBid(a)
	return a, nil
}

// offered is the offered action a stands for.
func offered(a giretra.Action, valid []giretra.Action) (giretra.Action, bool) {
	return giretra.Offered(a, valid)
}

func (s *seat) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	if s.kind == kindPerson {
		return s.inner.ChooseCard(ctx, v)
	}
	if err := s.t.gate(ctx); err != nil {
		return giretra.NoCard, err
	}
	c, err := s.watched().ChooseCard(ctx, v)
	if err != nil {
		return c, err
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
	if s.kind == kindPerson {
		return s.inner.Notify(ctx, pos, e)
	}
	return s.watched().Notify(ctx, pos, e)
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
