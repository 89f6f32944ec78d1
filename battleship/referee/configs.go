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

// DefaultSlowInit is Config.SlowInit's default.
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

// runConfigs plays one full game per odd board (the bot places its
// fleet and sinks a hidden one), checking every answer like the arena.
// Interrupted, it reports the configurations played so far.
func runConfigs(ctx context.Context, c Config, bot player) (*Report, error) {
	rep := &Report{Mode: "configs"}
	slowInit := c.SlowInit
	if slowInit <= 0 {
		slowInit = DefaultSlowInit
	}
	all := &callStats{}
	for i, oc := range oddConfigs() {
		if ctx.Err() != nil {
			break
		}
		if c.MaxCells > 0 && oc.rules.Cells() > c.MaxCells {
			continue
		}
		res := ConfigResult{Name: oc.name, OK: true}
		st := [2]*callStats{{}, {}}
		rng := rand.New(rand.NewPCG(c.Seed, uint64(i)))
		if oc.impossible {
			t0 := time.Now()
			body, _ := json.Marshal(wire.NewInit(9000+i, 0, oc.rules, "referee"))
			out, err := bot.call(ctx, body)
			if err != nil && ctx.Err() != nil {
				break // cut short: not a result
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
			rep.Configs = append(rep.Configs, res)
			continue
		}
		hidden, err := battleship.Place(oc.rules, rng, battleship.PlaceOptions{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", oc.name, err)
		}
		seats := [2]*seat{
			{p: bot, label: "gamebot"},
			{label: "hidden", ships: hidden},
		}
		g, err := playGame(ctx, st, seats, oc.rules, 9000+i, c.shotCap(oc.rules), nil)
		if err != nil && ctx.Err() != nil {
			break // cut short: not a result
		}
		if err != nil {
			return nil, err
		}
		if g.winner != 0 {
			res.OK, res.Invalid, res.Detail = false, true, g.invalid
			st[0].invalid = append(st[0].invalid, oc.name+": "+g.invalid)
		}
		res.Shots = g.shots
		if len(st[0].latencies) > 0 {
			res.InitMs = jsonl.Millis(st[0].latencies[0])
			l := latency(st[0].latencies[1:])
			res.P99ms, res.Maxms = l.P99ms, l.Maxms
		}
		all.latencies = append(all.latencies, st[0].latencies...)
		all.invalid = append(all.invalid, st[0].invalid...)
		rep.Games++
		if res.OK {
			rep.Wins++
		} else {
			rep.Losses++
		}
		rep.Configs = append(rep.Configs, res)
	}
	fillCalls(rep, all)
	return rep, nil
}
