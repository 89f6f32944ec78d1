package table

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/remote"
	"github.com/botarena/gamebot/battleship/wire"
	tables "github.com/botarena/gamebot/internal/table"
)

// opponent is the bot at a table, a player of the table's game: asked for
// its fleet once, then for a shot on each of its turns, and judged as the
// arena judges answers.
type opponent interface {
	battleship.Player
	// label is the bot's name in the record and on the page.
	label() string
	// remote reports a bot server (its calls are timed in the record).
	remote() bool
	// explained is the map behind the shot the last Shoot chose (nil: the
	// bot's reasons are not known here).
	explained() *battleship.ShotMap
}

// person is the person's seat as a player of the table's game: it waits
// for the page's decisions, which Act hands it.
type person struct {
	fleets chan []battleship.Ship
	shots  chan string
}

func newPerson() *person {
	return &person{fleets: make(chan []battleship.Ship), shots: make(chan string)}
}

func (p *person) Place(ctx context.Context, _ *battleship.Turn) ([]battleship.Ship, error) {
	select {
	case f := <-p.fleets:
		return f, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *person) Shoot(ctx context.Context, _ *battleship.Turn) (string, error) {
	select {
	case t := <-p.shots:
		return t, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// engine is our bot in process: a Bot of its own per table. A bot shared
// between tables would learn one person's habits from another's games,
// and the map behind a shot is the shot's only while nothing else
// changes the bot's memory between the shot and its explanation.
type engine struct {
	bot  *battleship.Bot
	name string // the person's, as the bot is told it
	seed uint64 // the game's, as the server draws it from game-id and seat
	env  tables.Env
	last *battleship.ShotMap
}

func newEngine(s setup, env tables.Env) *engine {
	return &engine{bot: battleship.NewBot(battleship.Options{}), name: s.name, seed: battleship.GameSeed(strconv.Itoa(s.gameID), 1-s.you), env: env}
}

func (*engine) label() string                    { return "gamebot" }
func (*engine) remote() bool                     { return false }
func (e *engine) explained() *battleship.ShotMap { return e.last }

// Place reads the engine's boats as the arena reads any bot's. Its
// searches are CPU-bound: they run in one of the hub's thinking slots.
func (e *engine) Place(ctx context.Context, t *battleship.Turn) ([]battleship.Ship, error) {
	var boats []string
	var err error
	if derr := e.env.Decide(ctx, func() { boats, err = e.bot.Init(e.name, t.Rules, e.seed) }); derr != nil {
		return nil, derr
	}
	if err != nil {
		return nil, &wire.InvalidAnswer{Reason: err.Error()}
	}
	raw, _ := json.Marshal(boats)
	return wire.ArenaBoats(t.Rules, raw)
}

// Shoot plays the engine's turn and keeps the map behind it, computed on
// the bot as it stands after the shot, before anything changes it.
func (e *engine) Shoot(ctx context.Context, t *battleship.Turn) (string, error) {
	var x, y int
	if err := e.env.Decide(ctx, func() {
		x, y = e.bot.PlayTurn(e.name, t.Rules, t.YoursRead, t.HisRead, e.seed)
		m := e.bot.Explain(e.name, t.Rules, t.YoursRead, e.seed)
		e.last = &m
	}); err != nil {
		return "", err
	}
	raw, _ := json.Marshal(battleship.FormatTarget(x, y))
	return wire.ArenaPlay(t.Rules, raw)
}

// botServer is a botsarena bot at a URL, called as the arena calls it.
type botServer struct {
	remote.Seat
	url string
}

func (b *botServer) label() string                { return b.url }
func (*botServer) remote() bool                   { return true }
func (*botServer) explained() *battleship.ShotMap { return nil }

// agent is one of the referee's in-process agents (battleship/agents),
// one game of it per table.
type agent struct {
	a   agents.Agent
	g   agents.Game
	env tables.Env
}

func (a *agent) label() string                { return a.a.Name() }
func (*agent) remote() bool                   { return false }
func (*agent) explained() *battleship.ShotMap { return nil }

func (a *agent) Place(ctx context.Context, _ *battleship.Turn) ([]battleship.Ship, error) {
	var ships []battleship.Ship
	var err error
	if derr := a.env.Decide(ctx, func() { ships, err = a.g.Place() }); derr != nil {
		return nil, derr
	}
	return ships, err
}

func (a *agent) Shoot(ctx context.Context, t *battleship.Turn) (string, error) {
	var x, y int
	if err := a.env.Decide(ctx, func() { x, y = a.g.Shoot(t.YoursRead, t.HisRead) }); err != nil {
		return "", err
	}
	if r := t.Rules; x < 0 || y < 0 || x >= r.W || y >= r.H {
		return "", wire.Invalid("badShot", []any{r.W, r.H}, "shot %d,%d is off the %dx%d board", x, y, r.W, r.H)
	}
	return battleship.FormatTarget(x, y), nil
}
