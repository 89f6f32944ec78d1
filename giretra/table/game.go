package table

import (
	"context"
	_ "embed"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/words"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

//go:embed page.html
var pageHTML []byte

//go:embed page.js
var pageJS []byte

//go:embed page.css
var pageCSS []byte

// Config is what gamebot play lets a page seat besides the persons, our
// bot and the engine's agents. Its zero value lets a page seat nothing
// that runs a program or calls an address: bot folders and bot URLs are
// the command line's to allow.
type Config struct {
	// BotsDir holds the bots a page may seat by name (external-bots/ of
	// the engine's checkout, or a folder named on the command line; "":
	// none). It is listed once, when the game is made: a page chooses
	// from that list and never names a folder.
	BotsDir string
	// BotHosts are the bot servers a page may seat by URL.
	BotHosts tables.BotHosts
}

// Game is Giretra's entry in gamebot play: persons, our bot and the
// engine's agents only.
func Game() *tables.Game { return Config{}.Game() }

// game is a Config made ready: its bots listed.
type game struct {
	cfg  Config
	bots []players.ExternalBot
}

// Game is Giretra's entry in gamebot play, its bots found as c says.
func (c Config) Game() *tables.Game {
	g := &game{cfg: c}
	if c.BotsDir != "" {
		g.bots = players.NewRegistry(c.BotsDir, nil).External()
	}
	return &tables.Game{
		Name:    "giretra",
		Title:   "Giretra",
		Blurb:   "Malagasy Belote: sit at any seat with or against our bot, the engine's agents, your own bot or friends, or watch four bots with their hands open.",
		Page:    pageHTML,
		Assets:  map[string][]byte{"page.js": pageJS, "page.css": pageCSS},
		New:     g.New,
		Choices: g.choices,
	}
}

// Choices is what the setup form offers for a seat.
type Choices struct {
	// Agents are the engine's agents: the name to send and its label.
	Agents []Choice `json:"agents"`
	// Bots are the bots of the folder gamebot play was given.
	Bots []Choice `json:"bots"`
	// URLs says which bot URLs a seat may hold ("": none).
	URLs string `json:"urls"`
}

// Choice is one entry of a menu.
type Choice struct {
	Name  string `json:"name"`
	Label string `json:"label"`
}

func (g *game) choices() any {
	c := Choices{Agents: []Choice{}, Bots: []Choice{}}
	for _, a := range players.EngineAgents() {
		c.Agents = append(c.Agents, Choice{Name: a[1], Label: a[1] + " (" + a[0] + ")"})
	}
	for _, b := range g.bots {
		label := b.AgentName
		if b.DisplayName != "" && b.DisplayName != b.AgentName {
			label += " (" + b.DisplayName + ")"
		}
		c.Bots = append(c.Bots, Choice{Name: b.AgentName, Label: label})
	}
	if !g.cfg.BotHosts.Off() {
		c.URLs = g.cfg.BotHosts.Describe()
	}
	return c
}

// Options is a table's setup, as the page's form sends it.
type Options struct {
	// Seats by seat (Bottom, Left, Top, Right): "you" (the person setting
	// the table up, at most one seat), "person" (a seat kept for someone
	// else: its link is given to pass on), "bot" (ours), an agent by the
	// engine's names (Eva or DeterministicPlayer, Razazavavy, Kialasoa,
	// Sakabelou), a bot server's URL (Config.BotHosts), or a bot of
	// Config.BotsDir by its name.
	Seats []string `json:"seats"`
	// Target is the match's target score, 1..10000 (absent: 151, the
	// engine's; 500 is its benchmark's).
	Target *int `json:"target,omitempty"`
	// Seed deals the decks and seeds the agents (absent: drawn, and shown
	// once the match is over: it would give every hand away).
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
	maxSeed       = 1<<53 - 1 // a page's numbers are doubles
	personPace    = 425
	watchPace     = 700
)

// bad is a setup the table cannot play: 400, in the words of w's
// language ("setup.KEY").
func bad(w words.Words, key string, args ...any) error {
	return problem.Malformedf("%s", w.T("setup."+key, args...))
}

// setup is a checked Options: its defaults filled in.
type setup struct {
	Options
	target    int
	seed      int64
	seedShown bool // the person chose the seed: it is theirs to see
	pace      int
	first     giretra.Position
}

// check validates the setup and fills its defaults; a problem names the
// setting and what may be chosen, in w's language.
func (o *Options) check(w words.Words) (setup, error) {
	s := setup{Options: *o, target: defaultTarget}
	if len(o.Seats) != 4 {
		return s, bad(w, "seats", len(o.Seats))
	}
	you, people := 0, 0
	for _, seat := range o.Seats {
		switch strings.ToLower(strings.TrimSpace(seat)) {
		case kindPerson:
			you++
			people++
		case kindGuest, "friend":
			people++
		}
	}
	if you > 1 {
		return s, bad(w, "yous", you)
	}
	if o.Target != nil {
		if *o.Target < 1 || *o.Target > maxTarget {
			return s, bad(w, "target", *o.Target, maxTarget)
		}
		s.target = *o.Target
	}
	if o.Seed != nil {
		if *o.Seed < 0 || *o.Seed > maxSeed {
			return s, bad(w, "seed", *o.Seed, int64(maxSeed))
		}
		s.seed, s.seedShown = *o.Seed, true
	} else {
		s.seed = rand.Int64N(1_000_000)
	}
	s.pace = personPace
	if people == 0 {
		s.pace = watchPace
	}
	if o.Pace != nil {
		if *o.Pace < 0 || *o.Pace > maxPace {
			return s, bad(w, "pace", *o.Pace, maxPace)
		}
		s.pace = *o.Pace
	}
	if o.Paused && people > 0 {
		return s, bad(w, "paused")
	}
	if o.FirstDealer != "" {
		p, ok := giretra.ParsePosition(o.FirstDealer)
		if !ok {
			return s, bad(w, "firstDealer", o.FirstDealer)
		}
		s.first = p
	}
	if len(o.Cuts) > 1000 {
		return s, bad(w, "cuts", len(o.Cuts))
	}
	for i, c := range o.Cuts {
		if c.Position < 6 || c.Position > 26 {
			return s, bad(w, "cut", i+1, c.Position)
		}
	}
	if o.Match < 0 || o.Match > 1_000_000 {
		return s, bad(w, "match", o.Match)
	}
	return s, nil
}

// New starts a table from the page's setup (tables.Game.New).
func (g *game) New(ctx context.Context, options []byte, env tables.Env) (tables.Table, tables.Seating, error) {
	var o Options
	if err := problem.DecodeStrict(options, &o); err != nil {
		return nil, tables.Seating{}, err
	}
	w := words.Words{P: env.P}
	s, err := o.check(w)
	if err != nil {
		return nil, tables.Seating{}, err
	}
	t := &Table{opts: s, env: env, created: time.Now(), done: make(chan struct{}), answers: make(chan answer, 1),
		wake: make(chan struct{}), paused: o.Paused, pace: time.Duration(s.pace) * time.Millisecond, mirror: deckRNG(s.seed),
		shown: map[tables.Seat]int{}, shownAt: map[tables.Seat]int{}, creator: tables.Host}
	seating := tables.Seating{Creator: tables.Host}
	for p, spec := range o.Seats {
		pos := giretra.Position(p)
		sp, err := g.resolveSeat(w, spec)
		if err != nil {
			return nil, seating, problem.Wrap(err, w.T("setup.seat", w.Seat(pos)))
		}
		switch sp.kind {
		case kindPerson:
			t.creator = tables.Seat(p)
		case kindGuest:
			seating.Others = append(seating.Others, tables.Place{Seat: tables.Seat(p), Name: pos.String()})
		}
		if sp.kind == kindPerson || sp.kind == kindGuest {
			sp.kind = kindPerson
			t.people[p] = true
		}
		t.specs[p] = sp
	}
	t.bots = t.people == [4]bool{}
	if t.creator == tables.Host && !t.bots {
		t.creator = tables.Watch // people play: the creator watches as anyone does
	}
	for p := range 4 {
		if t.people[p] {
			if tables.Seat(p) == t.creator {
				t.specs[p].name = "You"
			} else {
				t.specs[p].name = "Guest"
			}
		}
	}
	seating.Creator = t.creator
	ctx, t.cancel = context.WithCancel(ctx)
	var players [4]giretra.Player
	for p := range giretra.Position(4) {
		st := &seat{t: t, pos: p, kind: t.specs[p].kind}
		if st.kind == kindPerson {
			st.inner = person{t: t, pos: p}
		} else {
			inner, l, err := t.specs[p].open(ctx, p, s.seed, t.explainer(), g.cfg.BotHosts)
			if err != nil {
				t.cancel()
				t.stopServers()
				return nil, seating, problem.Wrap(err, w.T("setup.seat", w.Seat(p)))
			}
			if l != nil {
				t.servers = append(t.servers, l)
			}
			st.inner = inner
		}
		players[p] = st
	}
	t.sayLocked(func(r reader) string {
		if s.seedShown || t.bots {
			return r.T("log.startSeed", t.team(r, giretra.Team1), t.team(r, giretra.Team2), s.target, s.seed)
		}
		return r.T("log.start", t.team(r, giretra.Team1), t.team(r, giretra.Team2), s.target)
	})
	go t.run(ctx, players)
	return t, seating, nil
}

// again is the setup that plays the match's cards again with every
// player one seat further clockwise: the same decks, cuts and first
// dealer, so each team now holds the cards the other held (duplicate).
func (s *setup) again(cuts []giretra.Cut) *Options {
	n := s.Options
	n.Seats = make([]string, 4)
	for p, sp := range s.Seats {
		n.Seats[(p+1)%4] = sp
	}
	n.Cuts = make([]Cut, len(cuts))
	for i, c := range cuts {
		n.Cuts[i] = Cut{Position: c.Position, FromTop: c.FromTop}
	}
	seed, target, pace := s.seed, s.target, s.pace
	n.Seed, n.Target, n.Pace = &seed, &target, &pace
	n.FirstDealer = s.first.String()
	n.Match = max(1, s.Match) + 1
	n.Paused = false
	return &n
}
