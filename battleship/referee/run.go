// Package referee is battleref's logic: it plays bots as botsarena does,
// over HTTP with the arena's messages and judging (battleship/wire), or
// in-process agents (battleship/agents), in five modes: target (shots to
// sink hidden fleets), duel (two bots over HTTP, seats alternating),
// duel-inproc (two agents, fast), configs (the odd boards of
// docs/battleship.md §4) and calibrate (shooters compared on the same
// fleets). Run returns a Report; duels can be recorded (battleship/record).
// Every run is reproducible from Config.Seed.
package referee

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/internal/jsonl"
	"github.com/botarena/gamebot/internal/stats"
)

// Config is one run of the referee.
type Config struct {
	// Mode is target, duel, duel-inproc, configs or calibrate.
	Mode string
	// Bot is the player under test, Opponent its duel opponent: "self",
	// an agents.Agent name (battleship/agents) or a URL.
	Bot, Opponent string
	Games         int
	Rules         battleship.Rules
	// Concurrency is the number of games played at once (at least 1).
	Concurrency int
	// Seed fixes the hidden fleets and every player's randomness.
	Seed uint64
	// MaxShots is the shots after which a game counts as lost (0: 2 x
	// cells + 10); MaxCells (configs) skips larger boards (0: none).
	MaxShots, MaxCells int
	// Hidden is how target and calibrate hide fleets: "uniform" (every
	// placement equally likely) or "engine" (this module's placement).
	Hidden string
	// Warmup is the games duel-inproc plays first and does not count.
	Warmup int
	// Full plays duel-inproc games until both fleets are sunk.
	Full bool
	// RecordDir (duel modes) receives one record per game (battleship/record).
	RecordDir string
	// SlowInit (configs) fails an answer to an impossible fleet that takes
	// longer (0: DefaultSlowInit). The arena waits 10 s, but a bot that
	// cannot place a fleet has nothing to search for and should answer at
	// once; a test on a loaded machine gives it more.
	SlowInit time.Duration
	// Timeout bounds one HTTP exchange, connection included; a bot that
	// exceeds it loses the game, as on the arena (0: ArenaTimeout). A test
	// on a loaded machine gives it more.
	Timeout time.Duration
}

// ArenaTimeout is the arena's limit on one exchange with a bot.
const ArenaTimeout = 10 * time.Second

// SelfServer starts this module's engine behind the production server
// and returns its URL and how to stop it: the bot "self" of the HTTP
// modes, so that a run exercises the real edge.
type SelfServer func() (url string, stop func(), err error)

// errNotInproc is returned for a player that only exists over HTTP.
var errNotInproc = errors.New("-mode duel-inproc plays in-process players only (self, stupid, dg, dreadnought…); use -mode duel for URLs")

// Run plays c and returns its report; progress (nil: none) is told of
// every finished game. Interrupted (ctx done), it reports the games
// finished so far, marked Interrupted.
func Run(ctx context.Context, c Config, self SelfServer, progress func(done, total int)) (*Report, error) {
	r := c.Rules
	if err := r.Feasible(); err != nil && c.Mode != "configs" {
		return nil, fmt.Errorf("board: %w", err)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = ArenaTimeout
	}
	var stops []func()
	defer func() {
		for _, f := range stops {
			f()
		}
	}()
	resolve := func(spec string) (player, error) {
		switch {
		case spec == "self":
			url, stop, err := self()
			if err != nil {
				return nil, err
			}
			stops = append(stops, stop)
			return newHTTPPlayer(url, "self", timeout), nil
		case strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://"):
			if u, err := url.Parse(spec); err != nil || u.Host == "" {
				return nil, fmt.Errorf("player %q: not a URL with a host", spec)
			}
			return newHTTPPlayer(spec, spec, timeout), nil
		}
		a, err := agents.New(spec)
		if err != nil {
			return nil, fmt.Errorf("%w, or a URL", err)
		}
		return newAgentPlayer(a, c.Seed), nil
	}
	start := time.Now()
	var rep *Report
	var err error
	switch c.Mode {
	case "calibrate":
		// In-process shooters only: Bot and Opponent do not apply.
		rep, err = runCalibrate(ctx, c, r, progress)
	case "duel-inproc":
		bot, err1 := agents.New(c.Bot)
		opp, err2 := agents.New(c.Opponent)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("%w (%w)", errNotInproc, err)
		}
		rep, err = runDuelInproc(ctx, c, r, bot, opp, progress)
	default:
		var bot player
		if bot, err = resolve(c.Bot); err != nil {
			return nil, err
		}
		switch c.Mode {
		case "target":
			rep, err = runTarget(ctx, c, r, bot, progress)
		case "duel":
			opp, err2 := resolve(c.Opponent)
			if err2 != nil {
				return nil, err2
			}
			rep, err = runDuel(ctx, c, r, bot, opp, progress)
		case "configs":
			rep, err = runConfigs(ctx, c, bot)
		default:
			return nil, fmt.Errorf("unknown -mode %q: want target, duel, duel-inproc, configs or calibrate", c.Mode)
		}
	}
	if err != nil {
		return nil, err
	}
	if c.Mode != "calibrate" {
		rep.Bot = c.Bot
	}
	rep.ElapsedSecs = math.Round(time.Since(start).Seconds()*100) / 100
	rep.Interrupted = ctx.Err() != nil
	return rep, nil
}

// Report is the -json output (and the source of the text output).
type Report struct {
	Mode       string         `json:"mode"`
	Bot        string         `json:"bot,omitempty"`
	Opponent   string         `json:"opponent,omitempty"`
	Board      string         `json:"board,omitempty"`
	Hidden     string         `json:"hidden_fleets,omitempty"`
	Games      int            `json:"games"`
	Wins       int            `json:"wins"`
	Losses     int            `json:"losses"`
	WinRate    *WinRate       `json:"win_rate,omitempty"`
	Invalid    int            `json:"invalid_answers"`
	OppInvalid int            `json:"opponent_invalid_answers,omitempty"`
	InvalidWhy []string       `json:"invalid_examples,omitempty"`
	Shots      *ShotStats     `json:"shots,omitempty"`
	Latency    LatencyStats   `json:"latency,omitzero"`
	Configs    []ConfigResult `json:"configs,omitempty"`
	Seed       uint64         `json:"seed,omitempty"`
	// Warmup is the number of games played before counting (duel-inproc).
	Warmup int `json:"warmup_games,omitempty"`
	// SeatWins and SeatGames split a duel by the bot's seat (index 0
	// shoots first and wins ties).
	SeatWins  [2]int `json:"seat_wins,omitzero"`
	SeatGames [2]int `json:"seat_games,omitzero"`
	// BotShots and OppShots (-full) are the shots each side needed to sink
	// the other's fleet; ShotEdge is the opponent's minus the bot's.
	BotShots    *ShotStats    `json:"bot_shots,omitempty"`
	OppShots    *ShotStats    `json:"opponent_shots,omitempty"`
	ShotEdge    *PairedDiff   `json:"shot_edge,omitempty"`
	Calibration []CalibResult `json:"calibration,omitempty"`
	ElapsedSecs float64       `json:"elapsed_seconds"`
	// Interrupted is a run stopped by a signal: the figures cover the
	// games finished (Games).
	Interrupted bool `json:"interrupted,omitempty"`
}

// WinRate is a duel's win rate with its Wilson 95% interval.
type WinRate struct {
	Rate   float64 `json:"rate"`
	Low95  float64 `json:"low95"`
	High95 float64 `json:"high95"`
}

type ShotStats struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    int     `json:"max"`
	Min    int     `json:"min"`
}

type LatencyStats struct {
	Requests int     `json:"requests"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	Maxms    float64 `json:"max_ms"`
	// Slow counts requests over 100 ms (scheduler stalls on a loaded
	// machine show up here rather than in p99).
	Slow int `json:"over_100ms"`
	// SlowestAt is the index of the slowest request.
	SlowestAt int `json:"slowest_at"`
}

type ConfigResult struct {
	Name    string  `json:"name"`
	OK      bool    `json:"ok"`
	Detail  string  `json:"detail,omitempty"`
	Shots   int     `json:"shots,omitempty"`
	P99ms   float64 `json:"p99_ms"`
	InitMs  float64 `json:"init_ms"`
	Maxms   float64 `json:"max_ms"`
	Invalid bool    `json:"invalid"`
}

// forGames runs play(g) for g in 0..games-1 on c.Concurrency workers. It
// stops at the first error, or when ctx is done: games cut short then are
// not failures, and the caller reports those that finished.
func forGames(ctx context.Context, c Config, progress func(int, int), play func(g int, st [2]*callStats) error) ([2]*callStats, error) {
	var mu sync.Mutex
	total := [2]*callStats{{}, {}}
	next, done := 0, 0
	var firstErr error
	var wg sync.WaitGroup
	for range c.Concurrency {
		wg.Go(func() {
			for {
				mu.Lock()
				if next >= c.Games || firstErr != nil || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				g := next
				next++
				mu.Unlock()
				st := [2]*callStats{{}, {}}
				err := play(g, st)
				mu.Lock()
				for i := range 2 {
					total[i].latencies = append(total[i].latencies, st[i].latencies...)
					total[i].invalid = append(total[i].invalid, st[i].invalid...)
				}
				if err != nil && firstErr == nil && ctx.Err() == nil {
					firstErr = err
				}
				done++
				if progress != nil {
					progress(done, c.Games)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return total, firstErr
}

// hiddenFleet is game g's hidden fleet: the same for every mode and shooter
// given -seed and -hidden.
func hiddenFleet(c Config, r battleship.Rules, g int) ([]battleship.Ship, error) {
	rng := rand.New(rand.NewPCG(c.Seed, uint64(g)))
	hidden := battleship.RandomFleet(r, rng)
	if hidden == nil {
		return nil, fmt.Errorf("no fleet fits %s", boardName(r))
	}
	if c.Hidden == "engine" {
		// The bot's own choice for an opponent it knows nothing of, drawn
		// after the uniform fleet: a seed's games are the same games
		// whichever way fleets are hidden.
		self, err := agents.New("self")
		if err != nil {
			return nil, err
		}
		return self.NewGame("hidden", r, rng).Place()
	}
	return hidden, nil
}

func (c Config) shotCap(r battleship.Rules) int {
	if c.MaxShots > 0 {
		return c.MaxShots
	}
	return 2*r.Cells() + 10
}

// runTarget hides random fleets (-hidden) and counts the bot's shots.
func runTarget(ctx context.Context, c Config, r battleship.Rules, bot player, progress func(int, int)) (*Report, error) {
	rep := &Report{Mode: "target", Board: boardName(r), Hidden: c.Hidden}
	var shots []int // per finished game, in finishing order
	var mu sync.Mutex
	st, err := forGames(ctx, c, progress, func(g int, st [2]*callStats) error {
		hidden, err := hiddenFleet(c, r, g)
		if err != nil {
			return err
		}
		seats := [2]*seat{
			{p: bot, label: "self", ships: []battleship.Ship{}}, // shoots only
			{label: "hidden", ships: hidden},
		}
		res, err := playGame(ctx, st, seats, r, 1000+g, c.shotCap(r), nil)
		gameOver(seats, 1000+g)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if res.winner == 0 {
			rep.Wins++
			shots = append(shots, res.shots)
		} else {
			rep.Losses++
			shots = append(shots, c.shotCap(r))
			st[0].invalid = append(st[0].invalid, res.invalid)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Games = len(shots)
	rep.Shots = summarizeShots(shots)
	fillCalls(rep, st[0])
	return rep, nil
}

// runDuel plays bot (alternating seats) against opp.
func runDuel(ctx context.Context, c Config, r battleship.Rules, bot, opp player, progress func(int, int)) (*Report, error) {
	rep := &Report{Mode: "duel", Opponent: c.Opponent, Board: boardName(r)}
	var winShots []int
	var mu sync.Mutex
	st, err := forGames(ctx, c, progress, func(g int, st [2]*callStats) error {
		botSeat := g % 2
		seats := [2]*seat{}
		// A seat's label is its name as the other seat sees it.
		seats[botSeat] = &seat{p: bot, label: "gamebot"}
		seats[1-botSeat] = &seat{p: opp, label: opp.Name()}
		perSeat := [2]*callStats{}
		perSeat[botSeat], perSeat[1-botSeat] = st[0], st[1]
		var players [2]string
		var http [2]bool
		players[botSeat], players[1-botSeat] = c.Bot, c.Opponent
		for i, s := range seats {
			_, http[i] = s.p.(*httpPlayer)
		}
		w, err := c.recordGame(g, r, players, http, botSeat)
		if err != nil {
			return err
		}
		res, err := playGame(ctx, perSeat, seats, r, 5000+g, c.shotCap(r)*4, w)
		gameOver(seats, 5000+g)
		if err := endRecord(w, res, err); err != nil {
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
	return rep, nil
}

// recordGame starts game g's record in -record's folder (nil when not
// recording). One file per game, duel-0001.jsonl…, as giretra-ref writes
// one per match: the goroutine playing a game owns its file, so games
// played at once (-concurrency) never share one, and a file holds all of
// one game to show or send alone. Recording only observes: it draws no
// random number, so a seed plays the same games with or without it.
func (c Config) recordGame(g int, r battleship.Rules, players [2]string, http [2]bool, subjectSeat int) (*record.DuelWriter, error) {
	if c.RecordDir == "" {
		return nil, nil
	}
	h := record.DuelHeader{Command: c.Mode, Game: g + 1, Seed: c.Seed, Width: r.W, Height: r.H,
		Players: players, HTTP: http, Subject: c.Bot, SubjectSeat: subjectSeat}
	copy(h.Fleet[:], r.Fleet[1:])
	return record.CreateDuel(filepath.Join(c.RecordDir, fmt.Sprintf("duel-%04d.jsonl", g+1)), h)
}

// endRecord closes a game's record: its result, or the error that cut
// it short (which it returns, joined with any writing error).
func endRecord(w *record.DuelWriter, res gameResult, err error) error {
	winner := res.winner
	if err != nil {
		winner = -1
	}
	return errors.Join(err, w.End(winner, res.invalid, err, errors.Is(err, context.Canceled)))
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func boardName(r battleship.Rules) string {
	f := r.Fleet
	return fmt.Sprintf("%dx%d ships %d,%d,%d,%d,%d,%d", r.W, r.H, f[1], f[2], f[3], f[4], f[5], f[6])
}

// summarizeShots is nil for no games.
func summarizeShots(v []int) *ShotStats {
	if len(v) == 0 {
		return nil
	}
	s := slices.Clone(v)
	slices.Sort(s)
	sum := 0
	for _, x := range s {
		sum += x
	}
	n := len(s)
	return &ShotStats{
		Mean:   math.Round(float64(sum)/float64(n)*100) / 100,
		Median: float64(stats.Quantile(s, 0.5)),
		P90:    float64(stats.Quantile(s, 0.9)),
		Max:    s[n-1],
		Min:    s[0],
	}
}

func fillCalls(rep *Report, st *callStats) {
	rep.Invalid = len(st.invalid)
	rep.InvalidWhy = st.invalid[:min(5, len(st.invalid))]
	rep.Latency = latency(st.latencies)
}

func latency(d []time.Duration) LatencyStats {
	if len(d) == 0 {
		return LatencyStats{}
	}
	slow, at := 0, 0
	for i, v := range d {
		if v > 100*time.Millisecond {
			slow++
		}
		if v > d[at] {
			at = i
		}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return LatencyStats{Requests: len(s), P50ms: jsonl.Millis(stats.Quantile(s, 0.5)), P99ms: jsonl.Millis(stats.Quantile(s, 0.99)), Maxms: jsonl.Millis(s[len(s)-1]), Slow: slow, SlowestAt: at}
}
