package referee

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/internal/stats"
)

// calShooter is one contestant of -mode calibrate: it picks the next cell
// from the rules and history it is shown.
type calShooter struct {
	name  string
	info  string
	told  bool // shown battleship.RevealSunk's view instead of the arena's
	shoot func(r battleship.Rules, hist []battleship.Strike, rng *rand.Rand) (x, y int)
}

func nextShot(r battleship.Rules, hist []battleship.Strike, rng *rand.Rand) (int, int) {
	return battleship.NextShot(r, hist, rng, battleship.TargetOptions{}) // the bot's defaults
}

// calShooters: the bot as it plays, the bot told which ship each "hit and
// sunk" sank (information the arena does not give), the textbook density
// shooter told the same (the reference point of the literature), and the
// duel opponents as the arena informs them: the textbook shooter with its
// guess at each sunk ship, and Dreadnought before it has learnt anything.
func calShooters() []calShooter {
	dg, _ := agents.New("dg")
	dn, _ := agents.New("dreadnought")
	return []calShooter{
		{name: "self", info: "arena (sunk ship unnamed)", shoot: nextShot},
		{name: "self-told", info: "told sunk ships' cells", told: true, shoot: nextShot},
		{name: "density-told", info: "told sunk ships' cells", told: true, shoot: agentShot(dg)},
		{name: "dg", info: "arena (sunk ship unnamed)", shoot: agentShot(dg)},
		{name: "dreadnought", info: "arena, nothing learnt", shoot: agentShot(dn)},
	}
}

// agentShot shoots like a referee agents.Agent's first game against an unknown
// opponent, from the whole history at every shot (a fresh game each time,
// so a told view, which rewrites the past, is read afresh).
func agentShot(a agents.Agent) func(r battleship.Rules, hist []battleship.Strike, rng *rand.Rand) (int, int) {
	return func(r battleship.Rules, hist []battleship.Strike, rng *rand.Rand) (int, int) {
		return a.NewGame("calibrate", r, rng).Shoot(hist, nil)
	}
}

// CalibResult is one shooter's line of -mode calibrate.
type CalibResult struct {
	Shooter     string     `json:"shooter"`
	Information string     `json:"information"`
	Games       int        `json:"games"`
	Finished    int        `json:"finished"`
	Shots       *ShotStats `json:"shots"`
	// MeanCI95 is the half-width of the 95% interval of the mean.
	MeanCI95 float64 `json:"mean_ci95"`
	// VsSelf is the paired difference with the first shooter (same fleets),
	// negative when fewer shots are needed.
	VsSelf *PairedDiff `json:"vs_self,omitempty"`
}

type PairedDiff struct {
	Mean float64 `json:"mean"`
	CI95 float64 `json:"ci95"`
}

// CalibrateConfig is a calibration: in-process shooters on the same
// hidden fleets.
type CalibrateConfig struct {
	Setup
	// Hidden is how fleets are hidden, as in TargetConfig.
	Hidden string
}

// Calibrate plays every shooter of calShooters in-process (no HTTP) on
// the same hidden fleets as Target, with the same shooting seed per game
// for every shooter, and reports shots to sink each fleet. Interrupted
// (ctx done), it reports the games finished so far, marked Interrupted.
func Calibrate(ctx context.Context, c CalibrateConfig) (*Report, error) {
	start := time.Now()
	r := c.Rules
	if err := c.feasible(); err != nil {
		return nil, err
	}
	shooters := calShooters()
	rep := &Report{Mode: "calibrate", Board: boardName(r), Hidden: c.Hidden, Seed: c.Seed}
	// rows[g] is game g's shots per shooter, nil if the game did not finish
	// (interrupted); each game writes only its own row.
	rows := make([][]int, c.Games)
	finished := make([]int, len(shooters))
	var mu sync.Mutex
	capShots := shotCap(c.MaxShots, r)
	_, err := forGames(ctx, c.Setup, func(g int, _ [2]*callStats) error {
		hidden, err := hiddenFleet(c.Seed, c.Hidden, r, g)
		if err != nil {
			return err
		}
		row := make([]int, len(shooters))
		sunk := make([]bool, len(shooters))
		for i, s := range shooters {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rng := rand.New(rand.NewPCG(c.Seed^0x9e3779b97f4a7c15, uint64(g)))
			n, done, err := calibGame(r, hidden, s, rng, capShots)
			if err != nil {
				return fmt.Errorf("game %d, %s: %w", g, s.name, err)
			}
			row[i], sunk[i] = n, done
		}
		rows[g] = row
		mu.Lock()
		for i, done := range sunk {
			if done {
				finished[i]++
			}
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	shots := make([][]int, len(shooters))
	for _, row := range rows {
		if row == nil {
			continue
		}
		rep.Games++
		for i, n := range row {
			shots[i] = append(shots[i], n)
		}
	}
	if rep.Games == 0 {
		return rep.finish(ctx, "", start), nil
	}
	for i, s := range shooters {
		res := CalibResult{Shooter: s.name, Information: s.info, Games: rep.Games, Finished: finished[i],
			Shots: summarizeShots(shots[i])}
		res.MeanCI95 = round2(stats.MeanCI(shots[i]).Half())
		if i > 0 {
			// Paired on the same fleets and shooting seeds.
			d := make([]int, rep.Games)
			for g := range d {
				d[g] = shots[i][g] - shots[0][g]
			}
			m := stats.MeanCI(d)
			res.VsSelf = &PairedDiff{Mean: round2(m.Mean), CI95: round2(m.Half())}
		}
		rep.Calibration = append(rep.Calibration, res)
	}
	return rep.finish(ctx, "", start), nil
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// calibGame sinks hidden with one shooter and returns the shots fired and
// whether the fleet was sunk within maxShots (if not, maxShots counts, as
// in -mode target).
func calibGame(r battleship.Rules, hidden []battleship.Ship, s calShooter, rng *rand.Rand, maxShots int) (int, bool, error) {
	a := battleship.NewArena(r, hidden)
	var hist []battleship.Strike
	for a.Remaining() > 0 {
		if len(hist) >= maxShots {
			return maxShots, false, nil
		}
		rr, view := r, hist
		if s.told {
			rr, view = battleship.RevealSunk(r, hidden, hist)
		}
		x, y := s.shoot(rr, view, rng)
		if x < 0 || y < 0 || x >= r.W || y >= r.H {
			return 0, false, fmt.Errorf("shot %d,%d is off the %dx%d board", x, y, r.W, r.H)
		}
		res := a.Shoot(battleship.FormatTarget(x, y))
		hist = append(hist, battleship.Strike{X: x, Y: y, OK: true, Result: battleship.ParseResult(res)})
	}
	return len(hist), true, nil
}
