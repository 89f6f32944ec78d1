// Package table is battleship's table in gamebot play: a person against
// our bot (in process), one of the referee's agents, or any botsarena bot
// by URL, on any board and fleet the arena allows. The person places a
// fleet (by hand, at random, or as our bot would place it), then the two
// fire in turn, seat 0 first, as on the arena. The game is played by
// battleship.Play, the referee's own loop, with the person as a player of
// it that waits for the page; a bot server is asked and judged as the
// referee asks and judges bots (battleship/remote). The person's seat
// sees what a bot on the arena is told (each shot's result, never which
// ship sank) and the bot's fleet only when the game is over. After the
// game: the review (battleship/report's page of one game, read back from
// its record, with the duel viewer) and, against our bot, the map behind
// each of its shots (battleship.Bot.Explain).
//
// The page, the log, the results, the refusals and the review speak the
// reader's language (battleship/words holds every text): a view is
// written for its reader when it is made, and a watcher's texts name the
// person where the person's say "you". A setup's refusals are English:
// Game.New is given no reader.
package table

import (
	"context"
	_ "embed"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/players"
	"github.com/botarena/gamebot/battleship/remote"
	"github.com/botarena/gamebot/battleship/words"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

//go:embed page.html
var pageHTML []byte

//go:embed page.js
var pageJS []byte

//go:embed page.css
var pageCSS []byte

// Config is what gamebot play gives every battleship table.
type Config struct {
	// Timeout bounds one exchange with a bot server, connection included;
	// a bot that exceeds it loses, as on the arena (0: the arena's 10 s).
	Timeout time.Duration
	// Now is the clock of the lobby's times (nil: time.Now).
	Now func() time.Time
	// BotHosts are the bot servers a page may play against by URL (the
	// zero value: none).
	BotHosts tables.BotHosts
}

// Game is battleship's entry in gamebot play.
func Game(cfg Config) *tables.Game {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &tables.Game{
		Name:   "battleship",
		Title:  "Battleship",
		Blurb:  "botsarena's battleship on any board and fleet the arena allows, against our bot or yours by URL; after the game, the replay and the bot's map behind each shot.",
		Page:   pageHTML,
		Assets: map[string][]byte{"page.js": pageJS, "page.css": pageCSS},
		New: func(ctx context.Context, options []byte, env tables.Env) (tables.Table, tables.Seating, error) {
			return New(ctx, cfg, options, env)
		},
	}
}

// Options is a table's setup, as the page's form sends it; an absent
// field takes its default.
type Options struct {
	// Width and Height are the board's columns (x) and rows (y), 1..100
	// (default 10).
	Width  *int `json:"width"`
	Height *int `json:"height"`
	// Ship1..Ship6 count the ships of each length, 0..10 (default the
	// arena's form: 0, 1, 2, 1, 1, 0).
	Ship1 *int `json:"ship1"`
	Ship2 *int `json:"ship2"`
	Ship3 *int `json:"ship3"`
	Ship4 *int `json:"ship4"`
	Ship5 *int `json:"ship5"`
	Ship6 *int `json:"ship6"`
	// Opponent is "engine" (our bot, in process; the default), "url" (a
	// botsarena bot at URL) or any player of battleship/players: one of
	// the referee's agents by name, or a URL.
	Opponent string `json:"opponent"`
	URL      string `json:"url"`
	// First is who shoots first (seat 0): "you" (the default), "bot" or
	// "random".
	First string `json:"first"`
	// Pace is the pause (ms) before each of the bot's shots, so that a
	// person can follow (default DefaultPace; 0 for tests).
	Pace *int `json:"pace_ms"`
	// Name is the person's name as the bot is told it (default "guest").
	Name string `json:"name"`
	// Seed fixes every random choice of the table (default: drawn).
	Seed *uint64 `json:"seed"`
}

// Setup limits and defaults.
const (
	DefaultPace = 400 // ms: a person sees the bot's reply arrive
	maxPace     = 10_000
	maxName     = 40
)

// arenaDefault is the arena's form's fleet.
var arenaDefault = battleship.Fleet{0, 0, 1, 2, 1, 1, 0}

// setup is a validated Options.
type setup struct {
	r     battleship.Rules
	url   *url.URL // a bot server (nil: in process)
	agent string   // one of the referee's agents ("": our engine)
	// opponent is the opponent as the setup named it.
	opponent string
	you      int // the person's seat (0 shoots first)
	pace     time.Duration
	name     string
	seed     uint64
	gameID   int
}

// again is the setup of a game like this one: its board, fleet,
// opponent, seats, pace and name, with a seed of its own.
func (s setup) again() *Options {
	f := s.r.Fleet
	o := &Options{Width: &s.r.W, Height: &s.r.H, Ship1: &f[1], Ship2: &f[2], Ship3: &f[3], Ship4: &f[4], Ship5: &f[5], Ship6: &f[6],
		Opponent: s.opponent, First: []string{"you", "bot"}[s.you], Name: s.name}
	if s.url != nil {
		o.Opponent, o.URL = "url", s.url.String()
	}
	pace := int(s.pace.Milliseconds())
	o.Pace = &pace
	return o
}

// invalid is a setup the table cannot play: 400 naming the setting, in
// w's language ("setup.KEY").
func invalid(w words.Words, key string, args ...any) error {
	return problem.Malformedf("%s", w.T("setup."+key, args...))
}

// readOptions reads a setup; a refusal says why in w's language.
func readOptions(b []byte, cfg Config, w words.Words) (setup, error) {
	var o Options
	if err := problem.DecodeStrict(b, &o); err != nil {
		return setup{}, err
	}
	s := setup{r: battleship.Rules{W: 10, H: 10, Fleet: arenaDefault}, pace: DefaultPace * time.Millisecond, name: "guest"}
	for _, read := range []func(*setup, *Options, Config, words.Words) error{readBoard, readOpponent, readGame} {
		if err := read(&s, &o, cfg, w); err != nil {
			return s, err
		}
	}
	return s, nil
}

// readBoard reads the board and the fleet: what the arena's form allows
// and what a game can be played on.
func readBoard(s *setup, o *Options, _ Config, w words.Words) error {
	for _, f := range []struct {
		name   string
		v      *int
		to     *int
		lo, hi int
	}{
		{"width", o.Width, &s.r.W, 1, battleship.MaxSide},
		{"height", o.Height, &s.r.H, 1, battleship.MaxSide},
		{"ship1", o.Ship1, &s.r.Fleet[1], 0, battleship.MaxPerKind},
		{"ship2", o.Ship2, &s.r.Fleet[2], 0, battleship.MaxPerKind},
		{"ship3", o.Ship3, &s.r.Fleet[3], 0, battleship.MaxPerKind},
		{"ship4", o.Ship4, &s.r.Fleet[4], 0, battleship.MaxPerKind},
		{"ship5", o.Ship5, &s.r.Fleet[5], 0, battleship.MaxPerKind},
		{"ship6", o.Ship6, &s.r.Fleet[6], 0, battleship.MaxPerKind},
	} {
		if f.v == nil {
			continue
		}
		if *f.v < f.lo || *f.v > f.hi {
			return invalid(w, "range", w.T("setup.field."+f.name), *f.v, f.lo, f.hi)
		}
		*f.to = *f.v
	}
	r := s.r
	if r.Fleet.Ships() == 0 {
		return invalid(w, "noShip")
	}
	// The arena refuses a fleet covering more than half the board.
	if a := r.Fleet.Area(); a > r.W*r.H/2 {
		return invalid(w, "tooLarge", a, r.W, r.H, r.W*r.H/2)
	}
	// The arena lets some fleets through that no placement fits (docs:
	// its check is buggy); no game can be played with them.
	if _, err := battleship.Place(r, rand.New(rand.NewPCG(1, 1)), battleship.PlaceOptions{}); err != nil {
		return invalid(w, "noFit", r.W, r.H)
	}
	return nil
}

// readOpponent reads who the person plays: our engine by default, "url"
// naming the url field, or any player of battleship/players. A bot
// server must be one the server allows.
func readOpponent(s *setup, o *Options, cfg Config, w words.Words) error {
	switch o.Opponent {
	case "", "engine":
		return nil
	case "url":
		return readURL(s, o.URL, cfg, w)
	}
	s.opponent = o.Opponent
	e, err := players.Resolve(o.Opponent)
	switch {
	case err != nil:
		return invalid(w, "opponent", o.Opponent, strings.Join(players.Names()[1:], ", "))
	case e.URL != "":
		return readURL(s, e.URL, cfg, w)
	case !e.Self():
		s.agent = e.Agent
	}
	return nil
}

func readURL(s *setup, raw string, cfg Config, w words.Words) error {
	if cfg.BotHosts.Off() {
		return problem.New(problem.Forbidden, "%s", w.T("setup.urlsOff"))
	}
	u, err := cfg.BotHosts.Check(raw)
	if err != nil {
		return problem.Wrap(err, "url")
	}
	s.url = u
	return nil
}

// readGame reads who shoots first, the pace, the person's name and the
// seed, and draws what the seed decides.
func readGame(s *setup, o *Options, _ Config, w words.Words) error {
	if o.Seed != nil {
		s.seed = *o.Seed
	} else {
		s.seed = rand.Uint64()
	}
	rng := rand.New(rand.NewPCG(s.seed, 0x7ab1e))
	switch o.First {
	case "", "you":
	case "bot":
		s.you = 1
	case "random":
		s.you = rng.IntN(2)
	default:
		return invalid(w, "first", o.First)
	}
	if o.Pace != nil {
		if *o.Pace < 0 || *o.Pace > maxPace {
			return invalid(w, "range", w.T("setup.field.pace_ms"), *o.Pace, 0, maxPace)
		}
		s.pace = time.Duration(*o.Pace) * time.Millisecond
	}
	if n := strings.TrimSpace(o.Name); n != "" {
		if len(n) > maxName || strings.ContainsFunc(n, func(c rune) bool { return c < ' ' }) {
			return invalid(w, "name", maxName)
		}
		s.name = n
	}
	// The arena numbers its games; a table's number comes from its seed.
	s.gameID = 1 + rng.IntN(999_999)
	return nil
}

// New starts a table from the page's setup options: the bot is asked for
// its fleet at once (a bot server has the arena's time to answer), while
// the person places theirs.
func New(ctx context.Context, cfg Config, options []byte, env tables.Env) (tables.Table, tables.Seating, error) {
	s, err := readOptions(options, cfg, words.Words{P: env.P})
	if err != nil {
		return nil, tables.Seating{}, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	var opp opponent
	switch {
	case s.url != nil:
		u := s.url.String()
		opp = &botServer{Seat: remote.Seat{Call: remote.Via(u, cfg.Timeout, cfg.BotHosts.Dial(s.url)), GameID: s.gameID, Opponent: s.name}, url: u}
	case s.agent != "":
		a, err := agents.New(s.agent)
		if err != nil {
			return nil, tables.Seating{}, err
		}
		opp = &agent{a: a, g: a.NewGame(s.name, s.r, rand.New(rand.NewPCG(s.seed, 0xa6e47))), env: env}
	default:
		opp = newEngine(s, env)
	}
	ctx, cancel := context.WithCancel(ctx)
	g := newGame(s, opp, env, cfg.Now(), cancel)
	go g.run(ctx)
	return g, tables.Seating{Creator: tables.Seat(s.you)}, nil
}
