package referee

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/internal/stats"
)

// runDuelInproc plays bot against opp in-process (no HTTP, the arena's
// rules): -warmup games first, not counted, in which both sides may learn;
// then -n games, seats alternating. Each side's randomness in game g is
// seeded by (seed, g, side). Fleets are deliberately not paired between
// games: a learning side would meet the same fleet twice and learn it
// between the two games.
func runDuelInproc(ctx context.Context, c Config, r battleship.Rules, bot, opp agents.Agent, progress func(int, int)) (*Report, error) {
	rep := &Report{Mode: "duel-inproc", Opponent: c.Opponent, Board: boardName(r), Seed: c.Seed, Warmup: c.Warmup}
	if c.Warmup > 0 {
		w := c
		w.Games = c.Warmup
		w.Seed = c.Seed ^ 0x5bd1e995 // a stream of its own
		if _, err := forGames(ctx, w, nil, func(g int, st [2]*callStats) error {
			_, err := inprocGame(w, r, bot, opp, g, st, nil) // not counted, not recorded
			return err
		}); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			rep.Interrupted = true
			return rep, nil
		}
	}
	var mu sync.Mutex
	var winShots []int
	var both [2][]int // -full: each side's shots to sink the other's fleet
	st, err := forGames(ctx, c, progress, func(g int, st [2]*callStats) error {
		botSeat := g % 2
		var players [2]string
		players[botSeat], players[1-botSeat] = c.Bot, c.Opponent
		w, err := c.recordGame(g, r, players, [2]bool{}, botSeat)
		if err != nil {
			return err
		}
		res, err := inprocGame(c, r, bot, opp, g, st, w)
		if err := endRecord(w, res, err); err != nil {
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
		d := make([]int, len(both[0]))
		for i := range d {
			d[i] = both[1][i] - both[0][i]
		}
		m := stats.MeanCI(d)
		rep.ShotEdge = &PairedDiff{Mean: round2(m.Mean), CI95: round2(m.Half())}
	}
	fillCalls(rep, st[0])
	return rep, nil
}

func newWinRate(wins, games int) *WinRate {
	lo, hi := stats.Wilson(wins, games)
	wr := &WinRate{Low95: round3(lo), High95: round3(hi)}
	if games > 0 {
		wr.Rate = round3(float64(wins) / float64(games))
	}
	return wr
}

// inprocGame plays game g of a run: the bot sits at g%2. st[0] collects the
// bot's shot latencies (in-process: the engine's own time). rec (nil:
// none) records the fleets and the shots (without latencies: in-process
// times are no bot server's, and the record of a seed stays the same).
func inprocGame(c Config, r battleship.Rules, bot, opp agents.Agent, g int, st [2]*callStats, rec *record.DuelWriter) (gameResult, error) {
	botSeat := g % 2
	players := [2]agents.Agent{}
	players[botSeat], players[1-botSeat] = bot, opp
	side := [2]uint64{}
	side[botSeat], side[1-botSeat] = 0, 1
	var games [2]agents.Game
	var arenas [2]*battleship.Arena // the fleet each seat hides
	for i := range 2 {
		rng := rand.New(rand.NewPCG(c.Seed, uint64(g)<<1|side[i]))
		games[i] = players[i].NewGame(players[1-i].Name(), r, rng)
	}
	hist := [2][]battleship.Strike{}
	finish := func(res gameResult) (gameResult, error) {
		for i := range 2 {
			games[i].End(hist[i], hist[1-i])
		}
		return res, nil
	}
	for i := range 2 { // init: seat 0, then seat 1; a bad fleet loses at once
		ships, err := games[i].Place()
		if err == nil {
			err = battleship.CheckPlacement(r, ships)
		}
		if err != nil {
			return finish(gameResult{winner: 1 - i, invalid: "init: " + err.Error()})
		}
		arenas[i] = battleship.NewArena(r, ships)
		rec.Fleet(i, ships, 0)
	}
	maxShots := c.shotCap(r) * 4
	var done [2]bool
	for turn := 0; ; turn++ {
		i := turn % 2
		if done[i] {
			continue
		}
		if len(hist[i]) >= maxShots {
			return finish(gameResult{winner: 1 - i, invalid: fmt.Sprintf("no win after %d shots", maxShots)})
		}
		t0 := time.Now()
		x, y := games[i].Shoot(hist[i], hist[1-i])
		if i == botSeat {
			st[0].latencies = append(st[0].latencies, time.Since(t0))
		}
		if x < 0 || y < 0 || x >= r.W || y >= r.H {
			return finish(gameResult{winner: 1 - i, invalid: fmt.Sprintf("play-turn: shot %d,%d is off the %dx%d board", x, y, r.W, r.H)})
		}
		target := battleship.FormatTarget(x, y)
		res := arenas[1-i].Shoot(target)
		hist[i] = append(hist[i], battleship.Strike{X: x, Y: y, OK: true, Result: battleship.ParseResult(res)})
		rec.Shot(i, target, res, 0)
		if res != battleship.ResultWin {
			continue
		}
		if !c.Full {
			return finish(gameResult{winner: i, shots: len(hist[i])})
		}
		// -full: the loser plays on until it sinks the fleet too; the
		// winner is still the first to finish (seat 0 on equal counts).
		done[i] = true
		if done[1-i] {
			w := 0
			if len(hist[1]) < len(hist[0]) {
				w = 1
			}
			res := gameResult{winner: w, shots: len(hist[w])}
			res.both = [2]int{len(hist[botSeat]), len(hist[1-botSeat])}
			return finish(res)
		}
	}
}

// total fills the totals once every game is tallied (winShots: the shots
// of the games won).
func (rep *Report) total(winShots []int) {
	rep.Games = rep.Wins + rep.Losses
	rep.Shots = summarizeShots(winShots)
	rep.WinRate = newWinRate(rep.Wins, rep.Games)
}

// tally counts one finished duel game in rep, the bot in seat botSeat: an
// invalid answer by the loser is the bot's (in its stats) or the
// opponent's. It returns winShots with the bot's winning shot count added.
func (rep *Report) tally(res gameResult, botSeat int, bot *callStats, winShots []int) []int {
	rep.SeatGames[botSeat]++
	if res.winner == botSeat {
		rep.Wins++
		rep.SeatWins[botSeat]++
		if res.invalid != "" {
			rep.OppInvalid++
		}
		return append(winShots, res.shots)
	}
	rep.Losses++
	if res.invalid != "" {
		bot.invalid = append(bot.invalid, res.invalid)
	}
	return winShots
}
