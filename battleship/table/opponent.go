package table

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/battleship/wire"
)

// opponent is the bot at a table: asked for its fleet once, then for a
// shot on each of its turns, and judged as the arena judges answers.
type opponent interface {
	// label is the bot's name in the record and on the page.
	label() string
	// remote reports a bot server (its calls are timed in the record).
	remote() bool
	fleet(ctx context.Context, q question) ([]battleship.Ship, error)
	// shoot returns the target as the arena records it.
	shoot(ctx context.Context, q question) (string, error)
	// explain is the map behind the shot the last shoot chose (nil: the
	// bot's reasons are not known here).
	explain(q question) *battleship.ShotMap
}

// question is what the arena tells the bot: the game, its seat, the
// person's name, and on a turn both histories in both readings (as sent,
// and as the engine reads them).
type question struct {
	s          setup
	seat       int
	yours, his []wire.Strike
	yoursP     []battleship.Strike
	hisP       []battleship.Strike
	at         *battleship.Arena // the fleet shot at
}

// engine is our bot in process: a Bot of its own per table. A bot shared
// between tables would learn one person's habits from another's games,
// and the map behind a shot is the shot's only while nothing else
// changes the bot's memory between the shot and its explanation.
type engine struct {
	bot  *battleship.Bot
	seed uint64 // the game's, as the server draws it from game-id and seat
}

func newEngine(s setup) *engine {
	return &engine{bot: battleship.NewBot(battleship.Options{}), seed: battleship.GameSeed(strconv.Itoa(s.gameID), 1-s.you)}
}

func (*engine) label() string { return "gamebot" }
func (*engine) remote() bool  { return false }

// fleet reads the engine's boats as the arena reads any bot's.
func (e *engine) fleet(_ context.Context, q question) ([]battleship.Ship, error) {
	boats, err := e.bot.Init(q.s.name, q.s.r, e.seed)
	if err != nil {
		return nil, &wire.InvalidAnswer{Reason: err.Error()}
	}
	raw, _ := json.Marshal(boats)
	return wire.ArenaBoats(q.s.r, raw)
}

func (e *engine) shoot(_ context.Context, q question) (string, error) {
	x, y := e.bot.PlayTurn(q.s.name, q.s.r, q.yoursP, q.hisP, e.seed)
	raw, _ := json.Marshal(battleship.FormatTarget(x, y))
	return wire.ArenaPlay(q.at, q.s.r, raw)
}

func (e *engine) explain(q question) *battleship.ShotMap {
	m := e.bot.Explain(q.s.name, q.s.r, q.yoursP, e.seed)
	return &m
}

// botServer is a botsarena bot at a URL, called as the arena calls it.
type botServer struct {
	call referee.CallFunc
	url  string
}

func (b *botServer) label() string { return b.url }
func (*botServer) remote() bool    { return true }

func (b *botServer) fleet(ctx context.Context, q question) ([]battleship.Ship, error) {
	return referee.AskFleet(ctx, b.call, q.s.gameID, q.seat, q.s.r, q.s.name)
}

func (b *botServer) shoot(ctx context.Context, q question) (string, error) {
	return referee.AskShot(ctx, b.call, q.s.gameID, q.seat, q.s.r, q.s.name, q.yours, q.his, q.at)
}

func (*botServer) explain(question) *battleship.ShotMap { return nil }
