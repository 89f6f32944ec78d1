package referee

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/internal/stats"
)

// DuelConfig is a duel over HTTP: the bot against the opponent, seats
// alternating, each asked and judged as the arena asks and judges.
type DuelConfig struct {
	Setup
	HTTP
	// Bot is the player under test, Opponent its opponent
	// (battleship/players).
	Bot, Opponent string
	// RecordDir receives one record per game (battleship/record).
	RecordDir string
}

// Duel plays the duel and returns its report. Interrupted (ctx done), it
// reports the games finished so far, marked Interrupted.
func Duel(ctx context.Context, c DuelConfig) (*Report, error) {
	start := time.Now()
	r := c.Rules
	bot, err := c.openBot(c.Setup, c.Bot)
	if err != nil {
		return nil, err
	}
	defer bot.stop()
	opp, err := c.open(c.Opponent, c.Seed)
	if err != nil {
		return nil, err
	}
	defer opp.stop()
	rep := &Report{Mode: "duel", Opponent: opp.name, Board: boardName(r)}
	rec := recorder{dir: c.RecordDir, command: "duel", seed: c.Seed, rules: r, subject: bot.name}
	var winShots []int
	var mu sync.Mutex
	st, err := forGames(ctx, c.Setup, func(g int, st [2]*callStats) error {
		botSeat, gameID := g%2, 5000+g
		var seats [2]*contestant
		seats[botSeat], seats[1-botSeat] = bot, opp
		// The bot is told its opponent's name, the opponent the bot's
		// name on the arena.
		var game battleship.Game
		game.Rules, game.MaxShots = r, 4*shotCap(c.MaxShots, r)
		game.Seats[botSeat].Player = bot.seat(gameID, opp.label)
		game.Seats[1-botSeat].Player = opp.seat(gameID, "gamebot")
		w, err := rec.start(g, [2]string{seats[0].name, seats[1].name}, [2]bool{seats[0].http, seats[1].http}, botSeat)
		if err != nil {
			return err
		}
		w.hook(&game)
		perSeat := [2]*callStats{}
		perSeat[botSeat], perSeat[1-botSeat] = st[0], st[1]
		timed(&game, perSeat)
		o, err := battleship.Play(ctx, game)
		for i, s := range seats {
			s.gameOver(gameID, i)
		}
		if err == nil {
			faultTime(o, perSeat)
		}
		res := resultOf(o, botSeat)
		if err := w.end(res, err); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		winShots = rep.tally(res, botSeat, st[0], winShots)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.total(winShots)
	fillCalls(rep, st[0])
	return rep.finish(ctx, bot.name, start), nil
}

// recorder starts the records of a duel's games in dir ("": none). One
// file per game, duel-0001.jsonl…, as giretra-ref writes one per match:
// the goroutine playing a game owns its file, so games played at once
// (-concurrency) never share one, and a file holds all of one game to
// show or send alone. Recording only observes: it draws no random
// number, so a seed plays the same games with or without it.
type recorder struct {
	dir, command string
	seed         uint64
	rules        battleship.Rules
	subject      string
}

// gameRecord is one game's record in the writing (nil: not recording).
type gameRecord struct {
	w    *record.DuelWriter
	http [2]bool // the seats whose answers are timed
}

func (rc recorder) start(g int, names [2]string, http [2]bool, subjectSeat int) (*gameRecord, error) {
	if rc.dir == "" {
		return nil, nil
	}
	r := rc.rules
	h := record.DuelHeader{Command: rc.command, Game: g + 1, Seed: rc.seed, Width: r.W, Height: r.H,
		Players: names, HTTP: http, Subject: rc.subject, SubjectSeat: subjectSeat}
	copy(h.Fleet[:], r.Fleet[1:])
	w, err := record.CreateDuel(filepath.Join(rc.dir, fmt.Sprintf("duel-%04d.jsonl", g+1)), h)
	if err != nil {
		return nil, err
	}
	return &gameRecord{w: w, http: http}, nil
}

// hook records the game's fleets as placed and every shot, with a bot
// server's time to answer.
func (gr *gameRecord) hook(g *battleship.Game) {
	if gr == nil {
		return
	}
	ms := func(seat int, d time.Duration) time.Duration {
		if !gr.http[seat] {
			return 0 // an in-process player's time is no bot server's
		}
		return d
	}
	g.Placed = func(seat int, ships []battleship.Ship, d time.Duration) { gr.w.Fleet(seat, ships, ms(seat, d)) }
	g.Fired = func(seat int, s battleship.Shot, d time.Duration) { gr.w.Shot(seat, s.Target, s.Result, ms(seat, d)) }
}

// end closes a game's record: its result, or the error that cut it short
// (which it returns, joined with any writing error).
func (gr *gameRecord) end(res gameResult, err error) error {
	if gr == nil {
		return err
	}
	winner := res.winner
	if err != nil {
		winner = -1
	}
	return errors.Join(err, gr.w.End(winner, res.invalid, err, errors.Is(err, context.Canceled)))
}

func newWinRate(wins, games int) *WinRate {
	lo, hi := stats.Wilson(wins, games)
	wr := &WinRate{Low95: round3(lo), High95: round3(hi)}
	if games > 0 {
		wr.Rate = round3(float64(wins) / float64(games))
	}
	return wr
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
