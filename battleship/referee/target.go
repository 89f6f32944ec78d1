package referee

import (
	"context"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
)

// TargetConfig is a target run: the bot sinks hidden fleets, its shots
// counted.
type TargetConfig struct {
	Setup
	HTTP
	// Bot is the player under test (battleship/players).
	Bot string
	// Hidden is how fleets are hidden: "uniform" (every placement
	// equally likely) or "engine" (this module's placement).
	Hidden string
}

// Target plays the run and returns its report. Interrupted (ctx done),
// it reports the games finished so far, marked Interrupted.
func Target(ctx context.Context, c TargetConfig) (*Report, error) {
	start := time.Now()
	r := c.Rules
	bot, err := c.openBot(c.Setup, c.Bot)
	if err != nil {
		return nil, err
	}
	defer bot.stop()
	rep := &Report{Mode: "target", Board: boardName(r), Hidden: c.Hidden}
	var shots []int // per finished game, in finishing order
	var mu sync.Mutex
	maxShots := shotCap(c.MaxShots, r)
	st, err := forGames(ctx, c.Setup, func(g int, st [2]*callStats) error {
		hidden, err := hiddenFleet(c.Seed, c.Hidden, r, g)
		if err != nil {
			return err
		}
		game := battleship.Game{Rules: r, MaxShots: maxShots, Seats: [2]battleship.Seat{
			{Player: bot.seat(1000+g, "hidden"), Fleet: []battleship.Ship{}}, // shoots only
			{Fleet: hidden},
		}}
		timed(&game, st)
		o, err := battleship.Play(ctx, game)
		bot.gameOver(1000+g, 0)
		if err != nil {
			return err
		}
		faultTime(o, st)
		mu.Lock()
		defer mu.Unlock()
		if o.Fault == nil {
			rep.Wins++
			shots = append(shots, o.Shots[0])
		} else {
			rep.Losses++
			shots = append(shots, maxShots)
			st[0].invalid = append(st[0].invalid, o.Fault.Invalid())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Games = len(shots)
	rep.Shots = summarizeShots(shots)
	fillCalls(rep, st[0])
	return rep.finish(ctx, bot.name, start), nil
}
