package table

import (
	"context"
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

//go:embed page.html
var pageHTML []byte

//go:embed page.js
var pageJS []byte

//go:embed page.css
var pageCSS []byte

// Game is Giretra's entry in gamebot play.
func Game() *tables.Game { return Config{}.Game() }

// Config is where the tables find the bots of external-bots/.
type Config struct {
	// BotsDir holds them ("": external-bots/ of the checkout around the
	// working directory, where giretra-manage finds them).
	BotsDir string
}

// Game is Giretra's entry in gamebot play, its bots found as c says.
func (c Config) Game() *tables.Game {
	return &tables.Game{
		Name:   "giretra",
		Title:  "Giretra",
		Blurb:  "Malagasy Belote: sit at any seat with or against our bot, the engine's agents or your own bot, or watch four bots with their hands open.",
		Page:   pageHTML,
		Assets: map[string][]byte{"page.js": pageJS, "page.css": pageCSS},
		New:    c.New,
	}
}

// Options is a table's setup, as the page's form sends it.
type Options struct {
	// Seats by seat (Bottom, Left, Top, Right): "you" (at most one),
	// "bot" (ours), an agent by the engine's names (Eva or
	// DeterministicPlayer, Razazavavy, Kialasoa, Sakabelou), a bot
	// server's http(s) URL, or a bot of external-bots/ by its name.
	Seats []string `json:"seats"`
	// Target is the match's target score: 151 (validate's), 500
	// (benchmark's) or any other from 1 (0: 151).
	Target int `json:"target,omitempty"`
	// Seed deals the decks and seeds the agents (absent: drawn, and shown).
	Seed *int64 `json:"seed,omitempty"`
	// Pace is how long (ms) a bot waits before each decision, so that a
	// person can follow (absent: 425, the engine's web app's, with a
	// person; 700 watching).
	Pace *int `json:"pace,omitempty"`
	// Paused starts a table of four bots paused (step or resume it).
	Paused bool `json:"paused,omitempty"`
	// FirstDealer is the seat that deals first ("": Bottom, as the web app).
	FirstDealer string `json:"firstDealer,omitempty"`
	// Cuts replays a match's cuts, deal by deal: with its seed and first
	// dealer, the same cards fall to the same seats (duplicate).
	Cuts []Cut `json:"cuts,omitempty"`
	// Match numbers the match in its record (a replay is the next).
	Match int `json:"match,omitempty"`
}

// Cut is a deal's cut.
type Cut struct {
	Position int  `json:"position"`
	FromTop  bool `json:"fromTop"`
}

// Limits of the setup.
const (
	defaultTarget = 151
	maxTarget     = 10000
	maxPace       = 10000
	personPace    = 425
	watchPace     = 700
)

func (o *Options) seed() int64 { return *o.Seed }

// check validates the setup and fills its defaults; problems name the
// field.
func (o *Options) check() error {
	if len(o.Seats) != 4 {
		return problem.Impossiblef("seats: want 4 (Bottom, Left, Top, Right), not %d", len(o.Seats))
	}
	people := 0
	for _, s := range o.Seats {
		if strings.EqualFold(strings.TrimSpace(s), kindPerson) {
			people++
		}
	}
	if people > 1 {
		return problem.Impossiblef("seats: %d seats say you: one person sits at a table (none: four bots play, watched)", people)
	}
	switch {
	case o.Target == 0:
		o.Target = defaultTarget
	case o.Target < 1 || o.Target > maxTarget:
		return problem.Impossiblef("target: %d is not a target score (1..%d; 151 and 500 are the engine's)", o.Target, maxTarget)
	}
	if o.Seed == nil {
		s := rand.Int64N(1_000_000)
		o.Seed = &s
	} else if *o.Seed < 0 {
		return problem.Impossiblef("seed: %d: want a number ≥ 0", *o.Seed)
	}
	if o.Pace == nil {
		p := personPace
		if people == 0 {
			p = watchPace
		}
		o.Pace = &p
	} else if *o.Pace < 0 || *o.Pace > maxPace {
		return problem.Impossiblef("pace: %d ms: want 0..%d", *o.Pace, maxPace)
	}
	if o.Paused && people > 0 {
		return problem.Impossiblef("paused: a table is paused only when four bots play")
	}
	if o.FirstDealer != "" {
		if _, ok := giretra.ParsePosition(o.FirstDealer); !ok {
			return problem.Impossiblef("firstDealer: %q is not a seat (Bottom, Left, Top, Right)", o.FirstDealer)
		}
	}
	if len(o.Cuts) > 1000 {
		return problem.Impossiblef("cuts: %d: at most 1000", len(o.Cuts))
	}
	for i, c := range o.Cuts {
		if c.Position < 6 || c.Position > 26 {
			return problem.Impossiblef("cuts[%d]: position %d outside 6..26", i, c.Position)
		}
	}
	if o.Match < 0 {
		return problem.Impossiblef("match: %d: want ≥ 1", o.Match)
	}
	return nil
}

// New starts a table from the page's setup (tables.Game.New).
func (c Config) New(ctx context.Context, options []byte, env tables.Env) (tables.Table, error) {
	var o Options
	if err := problem.Decode(options, &o); err != nil {
		return nil, err
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	t := &Table{opts: o, you: -1, env: env, created: time.Now(), done: make(chan struct{}), answers: make(chan answer, 1),
		wake: make(chan struct{}), paused: o.Paused, pace: time.Duration(*o.Pace) * time.Millisecond, mirror: deckRNG(o.seed())}
	if o.FirstDealer != "" {
		t.first, _ = giretra.ParsePosition(o.FirstDealer)
	}
	reg := referee.NewRegistry(c.BotsDir, nil)
	for p, s := range o.Seats {
		spec, err := resolveSeat(reg, s)
		if err != nil {
			return nil, problem.Wrap(err, fmt.Sprintf("seats[%d] (%v)", p, giretra.Position(p)))
		}
		t.specs[p] = spec
		if spec.kind == kindPerson {
			t.you = p
		}
	}
	ctx, t.cancel = context.WithCancel(ctx)
	var players [4]giretra.Player
	for p := range giretra.Position(4) {
		s := &seat{t: t, pos: p, kind: t.specs[p].kind}
		if s.kind == kindPerson {
			s.inner = person{t: t}
		} else {
			inner, l, err := t.specs[p].open(ctx, p, o.seed(), t.explainer())
			if err != nil {
				t.cancel()
				for _, l := range t.servers {
					l.client.Close()
					l.stop()
				}
				return nil, problem.Wrap(err, fmt.Sprintf("seats[%d] (%v)", p, p))
			}
			if l != nil {
				t.servers = append(t.servers, l)
			}
			s.inner = inner
			s.remote, _ = inner.(*remote.Seat)
		}
		players[p] = s
	}
	t.sayLocked(fmt.Sprintf("%s vs %s, to %d; seed %d.", t.teamLocked(giretra.Team1), t.teamLocked(giretra.Team2), o.Target, o.seed()))
	go t.run(ctx, players)
	return t, nil
}

// again is the setup that plays the match's cards again with every
// player one seat further clockwise: the same decks, cuts and first
// dealer, so each team now holds the cards the other held (duplicate).
func (o *Options) again(cuts []giretra.Cut) *Options {
	n := *o
	n.Seats = make([]string, 4)
	for p, s := range o.Seats {
		n.Seats[(p+1)%4] = s
	}
	n.Cuts = make([]Cut, len(cuts))
	for i, c := range cuts {
		n.Cuts[i] = Cut{Position: c.Position, FromTop: c.FromTop}
	}
	n.Match = max(1, o.Match) + 1
	n.Paused = false
	return &n
}

// actionBody is what the page sends: one of a decision (cut, bid, card,
// next) or a view control (show, control).
type actionBody struct {
	Cut *struct {
		Position int  `json:"position"`
		FromTop  bool `json:"fromTop"`
	} `json:"cut"`
	Bid *struct {
		Type string `json:"type"`
		Mode string `json:"mode"`
	} `json:"bid"`
	Card    *string `json:"card"`
	Next    bool    `json:"next"`
	Show    *int    `json:"show"`    // the finished deal to detail
	Control string  `json:"control"` // pause, resume, step, speed (watching)
	Pace    *int    `json:"pace"`    // with speed
}

func (a *actionBody) count() int {
	n := 0
	for _, set := range []bool{a.Cut != nil, a.Bid != nil, a.Card != nil, a.Next, a.Show != nil, a.Control != ""} {
		if set {
			n++
		}
	}
	return n
}

// actionForms is the actions' shapes, for the error that asks for one.
const actionForms = `{"cut": {"position": 6..26, "fromTop": true}}, {"bid": {"type": "Announcement", "mode": "ColourHearts"}}, {"card": "JH"}, {"next": true}, {"show": deal}, {"control": "pause"|"resume"|"step"|"speed", "pace": ms}`

// Act applies the person's action. A decision is checked against the
// version it was decided on and the options offered; the view controls
// (which deal to detail; pause, step and speed when watching) decide
// nothing in the game and apply whatever the version.
func (t *Table) Act(seq int, body []byte) error {
	var a actionBody
	if err := problem.Decode(body, &a); err != nil {
		return err
	}
	if a.count() != 1 {
		return problem.Malformedf("an action is exactly one of %s", actionForms)
	}
	switch {
	case a.Show != nil:
		return t.show(*a.Show)
	case a.Control != "":
		return t.control(a.Control, a.Pace)
	}
	t.mu.Lock()
	if seq != t.seq {
		cur := t.seq
		t.mu.Unlock()
		return tables.ErrStale(seq, cur)
	}
	ans, err := t.decideLocked(&a)
	if err != nil {
		t.mu.Unlock()
		return err
	}
	t.pending = nil
	t.seq++
	t.mu.Unlock()
	t.answers <- ans
	t.env.Notify()
	return nil
}

// decideLocked checks the person's decision against the one pending and
// applies it to the table.
func (t *Table) decideLocked(a *actionBody) (answer, error) {
	p := t.pending
	if p == nil {
		return answer{}, tables.Illegal([]string{}, "nothing is yours to decide now: %s", t.waitingLocked())
	}
	kind := decideCut
	switch {
	case a.Bid != nil:
		kind = decideBid
	case a.Card != nil:
		kind = decideCard
	case a.Next:
		kind = decideNext
	}
	if kind != p.kind {
		return answer{}, tables.Illegal(p.options(), "you are to %s, not to %s", promptOf(p.kind), promptOf(kind))
	}
	you := giretra.Position(t.you)
	switch kind {
	case decideCut:
		c := giretra.Cut{Position: a.Cut.Position, FromTop: a.Cut.FromTop}
		if !c.Valid() {
			return answer{}, tables.Illegal(p.options(), "a cut takes 6 to 26 cards, not %d", c.Position)
		}
		t.cutLocked(you, c, false)
		return answer{cut: c}, nil
	case decideBid:
		typ, okT := giretra.ParseActionType(a.Bid.Type)
		mode, okM := giretra.ParseMode(a.Bid.Mode)
		if !okM {
			mode = giretra.NoMode
		}
		chosen, ok := offered(giretra.Action{Type: typ, Mode: mode}, p.bids)
		if !okT || !ok || typ != giretra.Accept && !okM {
			return answer{}, tables.Illegal(p.options(), "%s %s is not among the actions offered", a.Bid.Type, a.Bid.Mode)
		}
		chosen.Player = you
		t.bidLocked(chosen)
		return answer{bid: chosen}, nil
	case decideCard:
		c, ok := parseCard(*a.Card)
		if !ok || !p.cards.Has(c) {
			return answer{}, tables.Illegal(p.options(), "%q is not a card you may play now", *a.Card)
		}
		t.cardLocked(you, c)
		return answer{card: c}, nil
	}
	return answer{}, nil
}

// options are the pending decision's valid options, as the page sends
// them back.
func (d *decision) options() any {
	switch d.kind {
	case decideCut:
		return map[string]int{"min": 6, "max": 26}
	case decideBid:
		return bidOptions(d.bids)
	case decideCard:
		return cardCodes(d.cards, giretra.NoMode)
	}
	return []string{"next"}
}

// show picks the finished deal the view details.
func (t *Table) show(n int) error {
	t.mu.Lock()
	if n < 1 || n > len(t.deals) {
		finished := len(t.deals)
		t.mu.Unlock()
		return tables.Illegal(map[string]int{"min": 1, "max": finished}, "deal %d has not finished: %d deals have", n, finished)
	}
	t.shown = n
	t.seq++
	t.mu.Unlock()
	t.env.Notify()
	return nil
}

// control pauses, resumes, steps or sets the pace of a table of four bots.
func (t *Table) control(c string, pace *int) error {
	valid := []string{"pause", "resume", "step", "speed"}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.you >= 0 {
		return tables.Illegal([]string{}, "pause, step and speed are for tables of four bots")
	}
	switch c {
	case "pause":
		t.paused = true
	case "resume":
		t.paused = false
	case "step":
		t.paused = true
		t.steps++
	case "speed":
		if pace == nil || *pace < 0 || *pace > maxPace {
			return tables.Illegal(map[string]int{"min": 0, "max": maxPace}, "speed: pace (ms) 0..%d", maxPace)
		}
		t.pace = time.Duration(*pace) * time.Millisecond
	default:
		return tables.Illegal(valid, "no control %q", c)
	}
	close(t.wake)
	t.wake = make(chan struct{})
	t.seq++
	t.env.Notify()
	return nil
}
