package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/internal/jsonl"
)

// DefaultSlowInit is ConfigsConfig.SlowInit's default.
const DefaultSlowInit = time.Second

// oddConfig is one of the odd boards of docs/battleship.md §4.
type oddConfig struct {
	name  string
	rules battleship.Rules
	// impossible fleets reach bots (the arena's check is buggy): the bot
	// must answer a JSON object at once; it cannot place them.
	impossible bool
}

func fl(counts ...int) battleship.Fleet {
	var f battleship.Fleet
	copy(f[1:], counts)
	return f
}

func oddConfigs() []oddConfig {
	return []oddConfig{
		{name: "1x2 one 1-ship", rules: battleship.Rules{W: 1, H: 2, Fleet: fl(1)}},
		{name: "2x1 one 1-ship", rules: battleship.Rules{W: 2, H: 1, Fleet: fl(1)}},
		{name: "6x2 one 6-ship (horizontal only)", rules: battleship.Rules{W: 6, H: 2, Fleet: fl(0, 0, 0, 0, 0, 1)}},
		{name: "2x6 one 6-ship (vertical only)", rules: battleship.Rules{W: 2, H: 6, Fleet: fl(0, 0, 0, 0, 0, 1)}},
		{name: "3x3 {3,1} at the area limit", rules: battleship.Rules{W: 3, H: 3, Fleet: fl(1, 0, 1)}},
		{name: "4x4 {4,4}", rules: battleship.Rules{W: 4, H: 4, Fleet: fl(0, 0, 0, 2)}},
		{name: "5x4 {5,5}", rules: battleship.Rules{W: 5, H: 4, Fleet: fl(0, 0, 0, 0, 2)}},
		{name: "1x10 {5}", rules: battleship.Rules{W: 1, H: 10, Fleet: fl(0, 0, 0, 0, 1)}},
		{name: "10x1 {4,1}", rules: battleship.Rules{W: 10, H: 1, Fleet: fl(1, 0, 0, 1)}},
		{name: "100x1 eight 6-ships", rules: battleship.Rules{W: 100, H: 1, Fleet: fl(0, 0, 0, 0, 0, 8)}},
		{name: "10x10 standard 5,4,3,3,2", rules: battleship.Rules{W: 10, H: 10, Fleet: fl(0, 1, 2, 1, 1)}},
		{name: "10x10 ten 1-ships (parity useless)", rules: battleship.Rules{W: 10, H: 10, Fleet: fl(10)}},
		{name: "9x9 arena default 0,1,2,1,1,0", rules: battleship.Rules{W: 9, H: 9, Fleet: fl(0, 1, 2, 1, 1)}},
		{name: "21x20 all 60 ships (area limit)", rules: battleship.Rules{W: 21, H: 20, Fleet: fl(10, 10, 10, 10, 10, 10)}},
		{name: "100x100 all 60 ships", rules: battleship.Rules{W: 100, H: 100, Fleet: fl(10, 10, 10, 10, 10, 10)}},
		{name: "5x5 {6} impossible", rules: battleship.Rules{W: 5, H: 5, Fleet: fl(0, 0, 0, 0, 0, 1)}, impossible: true},
		{name: "3x3 {4} impossible", rules: battleship.Rules{W: 3, H: 3, Fleet: fl(0, 0, 0, 1)}, impossible: true},
	}
}

// ConfigsConfig is a configs run: one game on each odd board.
type ConfigsConfig struct {
	HTTP
	// Bot is the player under test (battleship/players).
	Bot  string
	Seed uint64
	// MaxShots is the shots after which a game counts as lost (0: 2 x
	// cells + 10); MaxCells skips larger boards (0: none).
	MaxShots, MaxCells int
	// SlowInit fails an answer to an impossible fleet that takes longer
	// (0: DefaultSlowInit). The arena waits 10 s, but a bot that cannot
	// place a fleet has nothing to search for and should answer at once;
	// a test on a loaded machine gives it more.
	SlowInit time.Duration
}

// Configs plays one full game per odd board (the bot places its fleet
// and sinks a hidden one), checking every answer like the arena.
// Interrupted, it reports the configurations played so far.
func Configs(ctx context.Context, c ConfigsConfig) (*Report, error) {
	start := time.Now()
	bot, err := c.open(c.Bot, c.Seed)
	if err != nil {
		return nil, err
	}
	defer bot.stop()
	rep, err := configs(ctx, c, bot)
	if err != nil {
		return nil, err
	}
	return rep.finish(ctx, bot.name, start), nil
}

func configs(ctx context.Context, c ConfigsConfig, bot *contestant) (*Report, error) {
	rep := &Report{Mode: "configs"}
	all := &callStats{}
	for i, oc := range oddConfigs() {
		if ctx.Err() != nil {
			break
		}
		if c.MaxCells > 0 && oc.rules.Cells() > c.MaxCells {
			continue
		}
		var res ConfigResult
		var st *callStats
		var err error
		if oc.impossible {
			res, err = c.impossible(ctx, bot, 9000+i, oc)
		} else {
			res, st, err = c.oddGame(ctx, bot, 9000+i, oc, rand.New(rand.NewPCG(c.Seed, uint64(i))))
		}
		if err != nil && ctx.Err() != nil {
			break // cut short: not a result
		}
		if err != nil {
			return nil, err
		}
		rep.Configs = append(rep.Configs, res)
		if st == nil {
			continue
		}
		all.latencies = append(all.latencies, st.latencies...)
		all.invalid = append(all.invalid, st.invalid...)
		rep.Games++
		if res.OK {
			rep.Wins++
		} else {
			rep.Losses++
		}
	}
	fillCalls(rep, all)
	return rep, nil
}

// impossible asks the bot to place a fleet that cannot be placed: it
// must answer a JSON object, at once.
func (c ConfigsConfig) impossible(ctx context.Context, bot *contestant, gameID int, oc oddConfig) (ConfigResult, error) {
	slowInit := c.SlowInit
	if slowInit <= 0 {
		slowInit = DefaultSlowInit
	}
	res := ConfigResult{Name: oc.name, OK: true}
	t0 := time.Now()
	body, _ := json.Marshal(wire.NewInit(gameID, 0, oc.rules, "referee"))
	out, err := bot.call(ctx, body)
	if err != nil && ctx.Err() != nil {
		return res, ctx.Err()
	}
	d := time.Since(t0)
	res.InitMs = jsonl.Millis(d)
	var obj map[string]any
	switch {
	case err != nil:
		res.OK, res.Detail = false, "no answer: "+err.Error()
	case json.Unmarshal(out, &obj) != nil:
		res.OK, res.Detail = false, fmt.Sprintf("answer is not a JSON object: %.60q", out)
	case d > slowInit:
		res.OK, res.Detail = false, "slow answer to an impossible fleet"
	default:
		res.Detail = fmt.Sprintf("answered %.70s", out)
	}
	return res, nil
}

// oddGame plays one game on an odd board: the bot places its fleet and
// sinks a hidden one.
func (c ConfigsConfig) oddGame(ctx context.Context, bot *contestant, gameID int, oc oddConfig, rng *rand.Rand) (ConfigResult, *callStats, error) {
	res := ConfigResult{Name: oc.name, OK: true}
	hidden, err := battleship.Place(oc.rules, rng, battleship.PlaceOptions{})
	if err != nil {
		return res, nil, fmt.Errorf("%s: %w", oc.name, err)
	}
	st := [2]*callStats{{}, {}}
	game := battleship.Game{Rules: oc.rules, MaxShots: shotCap(c.MaxShots, oc.rules), Seats: [2]battleship.Seat{
		{Player: bot.seat(gameID, "hidden")},
		{Fleet: hidden},
	}}
	timed(&game, st)
	o, err := battleship.Play(ctx, game)
	if err != nil {
		return res, nil, err
	}
	faultTime(o, st)
	if o.Fault != nil {
		res.OK, res.Invalid, res.Detail = false, true, o.Fault.Invalid()
		st[0].invalid = append(st[0].invalid, oc.name+": "+o.Fault.Invalid())
	} else {
		res.Shots = o.Shots[0]
	}
	if len(st[0].latencies) > 0 {
		res.InitMs = jsonl.Millis(st[0].latencies[0])
		l := latency(st[0].latencies[1:])
		res.P99ms, res.Maxms = l.P99ms, l.Maxms
	}
	return res, st[0], nil
}
