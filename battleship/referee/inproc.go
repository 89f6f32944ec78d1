package referee

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/players"
	"github.com/botarena/gamebot/internal/stats"
)

// DuelInprocConfig is a duel between in-process agents (no HTTP, the
// arena's rules), seats alternating.
type DuelInprocConfig struct {
	Setup
	// Bot is the player under test, Opponent its opponent: agents
	// (battleship/players), no URL.
	Bot, Opponent string
	// Warmup is the games played first and not counted, in which both
	// sides may learn.
	Warmup int
	// Full plays each game until both fleets are sunk and reports both
	// sides' shots.
	Full bool
	// RecordDir receives one record per game (battleship/record).
	RecordDir string
}

// errNotInproc is returned for a player that only exists over HTTP.
var errNotInproc = errors.New("-mode duel-inproc plays in-process players only (self, stupid, dg, dreadnought…); use -mode duel for URLs")

// DuelInproc plays the duel and returns its report. Each side's
// randomness in game g is seeded by (seed, g, side). Fleets are
// deliberately not paired between games: a learning side would meet the
// same fleet twice and learn it between the two games. Interrupted (ctx
// done), it reports the games finished so far, marked Interrupted.
func DuelInproc(ctx context.Context, c DuelInprocConfig) (*Report, error) {
	start := time.Now()
	r := c.Rules
	if err := c.feasible(); err != nil {
		return nil, err
	}
	bot, botName, err1 := inprocAgent(c.Bot)
	opp, oppName, err2 := inprocAgent(c.Opponent)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("%w (%w)", errNotInproc, err)
	}
	d := inprocDuel{c: c, bot: bot, opp: opp}
	rep := &Report{Mode: "duel-inproc", Opponent: oppName, Board: boardName(r), Seed: c.Seed, Warmup: c.Warmup}
	if c.Warmup > 0 {
		w := c.Setup
		w.Games, w.Progress = c.Warmup, nil
		w.Seed = c.Seed ^ 0x5bd1e995 // a stream of its own
		if _, err := forGames(ctx, w, func(g int, st [2]*callStats) error {
			_, err := d.game(ctx, w.Seed, g, st, nil) // not counted, not recorded
			return err
		}); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return rep.finish(ctx, botName, start), nil
		}
	}
	rec := recorder{dir: c.RecordDir, command: "duel-inproc", seed: c.Seed, rules: r, subject: botName}
	var mu sync.Mutex
	var winShots []int
	var both [2][]int // Full: each side's shots to sink the other's fleet
	st, err := forGames(ctx, c.Setup, func(g int, st [2]*callStats) error {
		botSeat := g % 2
		var names [2]string
		names[botSeat], names[1-botSeat] = botName, oppName
		w, err := rec.start(g, names, [2]bool{}, botSeat)
		if err != nil {
			return err
		}
		res, err := d.game(ctx, c.Seed, g, st, w)
		if err := w.end(res, err); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		winShots = rep.tally(res, botSeat, st[0], winShots)
		if c.Full && res.invalid == "" {
			both[0] = append(both[0], res.both[0])
			both[1] = append(both[1], res.both[1])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.total(winShots)
	if c.Full && len(both[0]) > 0 {
		rep.BotShots, rep.OppShots = summarizeShots(both[0]), summarizeShots(both[1])
		diff := make([]int, len(both[0]))
		for i := range diff {
			diff[i] = both[1][i] - both[0][i]
		}
		m := stats.MeanCI(diff)
		rep.ShotEdge = &PairedDiff{Mean: round2(m.Mean), CI95: round2(m.Half())}
	}
	fillCalls(rep, st[0])
	return rep.finish(ctx, botName, start), nil
}

// inprocAgent is the agent a spec names, and its name for reports.
func inprocAgent(text string) (agents.Agent, string, error) {
	e, a, err := players.Agent(text)
	return a, e.Name, err
}

// inprocDuel is the bot and its opponent of a DuelInproc run.
type inprocDuel struct {
	c        DuelInprocConfig
	bot, opp agents.Agent
}

// game plays game g of a run seeded by seed: the bot sits at g%2. st[0]
// collects the bot's shot latencies (in-process: the engine's own time).
// rec (nil: none) records the fleets and the shots, without latencies.
func (d inprocDuel) game(ctx context.Context, seed uint64, g int, st [2]*callStats, rec *gameRecord) (gameResult, error) {
	r := d.c.Rules
	botSeat := g % 2
	var who [2]agents.Agent
	who[botSeat], who[1-botSeat] = d.bot, d.opp
	side := [2]uint64{}
	side[botSeat], side[1-botSeat] = 0, 1
	var games [2]agents.Game
	game := battleship.Game{Rules: r, MaxShots: 4 * shotCap(d.c.MaxShots, r), PlayOn: d.c.Full}
	for i := range 2 {
		rng := rand.New(rand.NewPCG(seed, uint64(g)<<1|side[i]))
		games[i] = who[i].NewGame(who[1-i].Name(), r, rng)
		game.Seats[i].Player = agentSeat{games[i]}
	}
	rec.hook(&game)
	fired := game.Fired
	game.Fired = func(seat int, s battleship.Shot, dt time.Duration) {
		if seat == botSeat {
			st[0].latencies = append(st[0].latencies, dt)
		}
		if fired != nil {
			fired(seat, s, dt)
		}
	}
	o, err := battleship.Play(ctx, game)
	if err != nil {
		return gameResult{}, err
	}
	if f := o.Fault; f != nil && f.Seat == botSeat && f.Phase == "play-turn" {
		st[0].latencies = append(st[0].latencies, f.D)
	}
	for i := range 2 {
		games[i].End(o.Read[i], o.Read[1-i])
	}
	return resultOf(o, botSeat), nil
}

// agentSeat is an agent's game as a player of battleship.Play.
type agentSeat struct{ g agents.Game }

func (a agentSeat) Place(context.Context, *battleship.Turn) ([]battleship.Ship, error) {
	return a.g.Place()
}

func (a agentSeat) Shoot(_ context.Context, t *battleship.Turn) (string, error) {
	x, y := a.g.Shoot(t.YoursRead, t.HisRead)
	if r := t.Rules; x < 0 || y < 0 || x >= r.W || y >= r.H {
		return "", fmt.Errorf("shot %d,%d is off the %dx%d board", x, y, r.W, r.H)
	}
	return battleship.FormatTarget(x, y), nil
}
