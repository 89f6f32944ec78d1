package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/record"
)

type config struct {
	mode        string
	bot         string
	opponent    string
	games       int
	width       int
	height      int
	fleet       battleship.Fleet
	concurrency int
	seed        uint64
	jsonOut     bool
	maxShots    int
	maxCells    int
	hidden      string
	warmup      int
	full        bool
	recordDir   string // -record: one JSON Lines file per duel game
}

// report is the -json output (and the source of the text output).
type report struct {
	Mode       string         `json:"mode"`
	Bot        string         `json:"bot,omitempty"`
	Opponent   string         `json:"opponent,omitempty"`
	Board      string         `json:"board,omitempty"`
	Hidden     string         `json:"hidden_fleets,omitempty"`
	Games      int            `json:"games"`
	Wins       int            `json:"wins"`
	Losses     int            `json:"losses"`
	WinRate    *winRate       `json:"win_rate,omitempty"`
	Invalid    int            `json:"invalid_answers"`
	OppInvalid int            `json:"opponent_invalid_answers,omitempty"`
	InvalidWhy []string       `json:"invalid_examples,omitempty"`
	Shots      *shotStats     `json:"shots,omitempty"`
	Latency    latencyStats   `json:"latency,omitzero"`
	Configs    []configResult `json:"configs,omitempty"`
	Seed       uint64         `json:"seed,omitempty"`
	// Warmup is the number of games played before counting (duel-inproc).
	Warmup int `json:"warmup_games,omitempty"`
	// SeatWins and SeatGames split a duel by the bot's seat (index 0
	// shoots first and wins ties).
	SeatWins  [2]int `json:"seat_wins,omitzero"`
	SeatGames [2]int `json:"seat_games,omitzero"`
	// BotShots and OppShots (-full) are the shots each side needed to sink
	// the other's fleet; ShotEdge is the opponent's minus the bot's.
	BotShots    *shotStats    `json:"bot_shots,omitempty"`
	OppShots    *shotStats    `json:"opponent_shots,omitempty"`
	ShotEdge    *pairedDiff   `json:"shot_edge,omitempty"`
	Calibration []calibResult `json:"calibration,omitempty"`
	ElapsedSecs float64       `json:"elapsed_seconds"`
	// Interrupted is a run stopped by a signal: the figures cover the
	// games finished (Games).
	Interrupted bool `json:"interrupted,omitempty"`
}

// winRate is a duel's win rate with its Wilson 95% interval.
type winRate struct {
	Rate   float64 `json:"rate"`
	Low95  float64 `json:"low95"`
	High95 float64 `json:"high95"`
}

type shotStats struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    int     `json:"max"`
	Min    int     `json:"min"`
}

type latencyStats struct {
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

type configResult struct {
	Name    string  `json:"name"`
	OK      bool    `json:"ok"`
	Detail  string  `json:"detail,omitempty"`
	Shots   int     `json:"shots,omitempty"`
	P99ms   float64 `json:"p99_ms"`
	InitMs  float64 `json:"init_ms"`
	Maxms   float64 `json:"max_ms"`
	Invalid bool    `json:"invalid"`
}

func parseFleet(s string) (battleship.Fleet, error) {
	var f battleship.Fleet
	parts := strings.Split(s, ",")
	if len(parts) != battleship.MaxLen {
		return f, fmt.Errorf("-fleet wants %d comma-separated counts (ship1..ship6), got %q", battleship.MaxLen, s)
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 || v > battleship.MaxPerKind {
			return f, fmt.Errorf("-fleet: bad count %q", p)
		}
		f[i+1] = v
	}
	return f, nil
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "show":
			return runShow(args[1:], stdout, stderr)
		case "report":
			return runReport(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("battleref", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var fleet string
	fs.StringVar(&c.mode, "mode", "target", "target | duel | duel-inproc | configs | calibrate")
	fs.StringVar(&c.bot, "bot", "self", `bot under test: "self", a player below or a URL`)
	fs.StringVar(&c.opponent, "opponent", "stupid", `duel opponent: "self", "stupid", "dg", "dreadnought" (also -place, -shoot, -static, -exact) or a URL`)
	fs.BoolVar(&c.full, "full", false, "duel-inproc: play each game until both fleets are sunk and report both sides' shots (a diagnostic: the arena stops at the first, and learning players then see longer games)")
	fs.IntVar(&c.warmup, "warmup", 0, "duel-inproc: games played first and not counted (learning players keep what they learnt)")
	fs.IntVar(&c.games, "n", 1000, "number of games")
	fs.IntVar(&c.width, "w", 10, "board width")
	fs.IntVar(&c.height, "h", 10, "board height")
	fs.StringVar(&fleet, "fleet", "0,1,2,1,1,0", "ship1..ship6 counts")
	fs.IntVar(&c.concurrency, "concurrency", 0, "games played at once (0 = 1; calibrate: the number of CPUs)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed for hidden fleets (0: a random seed, printed)")
	fs.BoolVar(&c.jsonOut, "json", false, "print the report as JSON")
	fs.IntVar(&c.maxShots, "max-shots", 0, "shots after which a game counts as lost (0 = 2 x cells + 10)")
	fs.IntVar(&c.maxCells, "max-cells", 0, "configs mode: skip boards with more cells (0 = play all)")
	fs.StringVar(&c.recordDir, "record", "", "duel modes: write a game record per game (JSON Lines) into this folder: both fleets, every shot and its result, latencies, the winner")
	fs.StringVar(&c.hidden, "hidden", "uniform", `target and calibrate modes: hidden fleets "uniform" (all placements equally likely) or "engine" (this module's placement)`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	f, err := parseFleet(fleet)
	if err != nil {
		return err
	}
	c.fleet = f
	if c.hidden != "uniform" && c.hidden != "engine" {
		return fmt.Errorf("-hidden %q: want uniform or engine", c.hidden)
	}
	if c.games < 1 || c.concurrency < 0 || c.warmup < 0 {
		return errors.New("-n must be >= 1, -concurrency and -warmup >= 0")
	}
	if c.recordDir != "" {
		if c.mode != "duel" && c.mode != "duel-inproc" {
			return fmt.Errorf("-record applies to -mode duel and duel-inproc, not %q", c.mode)
		}
		if err := os.MkdirAll(c.recordDir, 0o755); err != nil {
			return err
		}
	}
	if c.concurrency == 0 {
		c.concurrency = 1
		if c.mode == "calibrate" {
			c.concurrency = runtime.NumCPU()
		}
	}
	if c.seed == 0 {
		c.seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "battleref: seed %d\n", c.seed)
	}
	r := battleship.Rules{W: c.width, H: c.height, Fleet: c.fleet}
	if err := r.Feasible(); err != nil && c.mode != "configs" {
		return fmt.Errorf("board: %w", err)
	}

	var closers []func()
	defer func() {
		for _, f := range closers {
			f()
		}
	}()
	resolve := func(spec string) (player, error) {
		switch {
		case spec == "self":
			s, err := startSelf(battleship.NewBot(battleship.Options{}))
			if err != nil {
				return nil, err
			}
			closers = append(closers, s.close)
			return newHTTPPlayer(s.url, "self"), nil
		case strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://"):
			return newHTTPPlayer(spec, spec), nil
		}
		a, err := newAgent(spec)
		if err != nil {
			return nil, fmt.Errorf("%w, or a URL", err)
		}
		return newAgentPlayer(a, c.seed), nil
	}
	start := time.Now()
	var rep *report
	switch c.mode {
	case "calibrate":
		// In-process shooters only: -bot and -opponent do not apply.
		rep, err = runCalibrate(ctx, c, r, progressTo(stderr))
	case "duel-inproc":
		bot, err1 := newAgent(c.bot)
		opp, err2 := newAgent(c.opponent)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%w (%w)", errNotInproc, err)
		}
		rep, err = runDuelInproc(ctx, c, r, bot, opp, progressTo(stderr))
		if rep != nil {
			rep.Bot = c.bot
		}
	default:
		var bot player
		if bot, err = resolve(c.bot); err != nil {
			return err
		}
		switch c.mode {
		case "target":
			rep, err = runTarget(ctx, c, r, bot, progressTo(stderr))
		case "duel":
			opp, err2 := resolve(c.opponent)
			if err2 != nil {
				return err2
			}
			rep, err = runDuel(ctx, c, r, bot, opp, progressTo(stderr))
		case "configs":
			rep, err = runConfigs(ctx, c, bot)
		default:
			return fmt.Errorf("unknown -mode %q: want target, duel, duel-inproc, configs or calibrate", c.mode)
		}
		if rep != nil {
			rep.Bot = c.bot
		}
	}
	if err != nil {
		return err
	}
	rep.ElapsedSecs = math.Round(time.Since(start).Seconds()*100) / 100
	rep.Interrupted = ctx.Err() != nil
	if c.jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printReport(stdout, rep)
	}
	switch {
	case rep.Interrupted:
		return fmt.Errorf("interrupted: %w", ctx.Err())
	case rep.Invalid > 0 && !c.jsonOut: // -json carries the count for the caller to judge
		return fmt.Errorf("%d invalid answers from the bot under test", rep.Invalid)
	}
	return nil
}

// progressTo returns a progress printer when w is a terminal, else nil.
func progressTo(w io.Writer) func(done, total int) {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	var mu sync.Mutex
	last := time.Time{}
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done < total && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		const width = 40
		n := done * width / total
		fmt.Fprintf(w, "\r[%s%s] %d/%d", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

// forGames runs play(g) for g in 0..games-1 on c.concurrency workers. It
// stops at the first error, or when ctx is done: games cut short then are
// not failures, and the caller reports those that finished.
func forGames(ctx context.Context, c config, progress func(int, int), play func(g int, st [2]*callStats) error) ([2]*callStats, error) {
	var mu sync.Mutex
	total := [2]*callStats{{}, {}}
	next, done := 0, 0
	var firstErr error
	var wg sync.WaitGroup
	for range c.concurrency {
		wg.Go(func() {
			for {
				mu.Lock()
				if next >= c.games || firstErr != nil || ctx.Err() != nil {
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
					progress(done, c.games)
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
func hiddenFleet(c config, r battleship.Rules, g int) ([]battleship.Ship, error) {
	rng := rand.New(rand.NewPCG(c.seed, uint64(g)))
	hidden := battleship.RandomFleet(r, rng)
	if hidden == nil {
		return nil, fmt.Errorf("no fleet fits %s", boardName(r))
	}
	if c.hidden == "engine" {
		// The bot's own choice for an opponent it knows nothing of, drawn
		// after the uniform fleet, as before: seeds keep their fleets.
		g := (&selfAgent{bot: battleship.NewBot(battleship.Options{})}).newGame("hidden", r, rng)
		return g.place()
	}
	return hidden, nil
}

func (c config) shotCap(r battleship.Rules) int {
	if c.maxShots > 0 {
		return c.maxShots
	}
	return 2*r.Cells() + 10
}

// runTarget hides random fleets (-hidden) and counts the bot's shots.
func runTarget(ctx context.Context, c config, r battleship.Rules, bot player, progress func(int, int)) (*report, error) {
	rep := &report{Mode: "target", Board: boardName(r), Hidden: c.hidden}
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
func runDuel(ctx context.Context, c config, r battleship.Rules, bot, opp player, progress func(int, int)) (*report, error) {
	rep := &report{Mode: "duel", Opponent: c.opponent, Board: boardName(r)}
	var winShots []int
	var mu sync.Mutex
	st, err := forGames(ctx, c, progress, func(g int, st [2]*callStats) error {
		botSeat := g % 2
		seats := [2]*seat{}
		// A seat's label is its name as the other seat sees it.
		seats[botSeat] = &seat{p: bot, label: "gamebot"}
		seats[1-botSeat] = &seat{p: opp, label: opp.name()}
		perSeat := [2]*callStats{}
		perSeat[botSeat], perSeat[1-botSeat] = st[0], st[1]
		var players [2]string
		var http [2]bool
		players[botSeat], players[1-botSeat] = c.bot, c.opponent
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
func (c config) recordGame(g int, r battleship.Rules, players [2]string, http [2]bool, subjectSeat int) (*record.DuelWriter, error) {
	if c.recordDir == "" {
		return nil, nil
	}
	h := record.DuelHeader{Command: c.mode, Game: g + 1, Seed: c.seed, Width: r.W, Height: r.H,
		Players: players, HTTP: http, Subject: c.bot, SubjectSeat: subjectSeat}
	copy(h.Fleet[:], r.Fleet[1:])
	return record.CreateDuel(filepath.Join(c.recordDir, fmt.Sprintf("duel-%04d.jsonl", g+1)), h)
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
func summarizeShots(v []int) *shotStats {
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
	return &shotStats{
		Mean:   math.Round(float64(sum)/float64(n)*100) / 100,
		Median: quantileInt(s, 0.5),
		P90:    quantileInt(s, 0.9),
		Max:    s[n-1],
		Min:    s[0],
	}
}

// quantileInt is the nearest-rank quantile of sorted v (median of an even
// count: mean of the two middle values).
func quantileInt(s []int, q float64) float64 {
	n := len(s)
	if q == 0.5 && n%2 == 0 {
		return float64(s[n/2-1]+s[n/2]) / 2
	}
	k := int(math.Ceil(q*float64(n))) - 1
	return float64(s[max(0, min(n-1, k))])
}

func fillCalls(rep *report, st *callStats) {
	rep.Invalid = len(st.invalid)
	rep.InvalidWhy = st.invalid[:min(5, len(st.invalid))]
	rep.Latency = latency(st.latencies)
}

func latency(d []time.Duration) latencyStats {
	if len(d) == 0 {
		return latencyStats{}
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
	ms := func(q float64) float64 {
		k := int(math.Ceil(q*float64(len(s)))) - 1
		return math.Round(float64(s[max(0, k)].Microseconds())) / 1000
	}
	return latencyStats{Requests: len(s), P50ms: ms(0.5), P99ms: ms(0.99), Maxms: ms(1), Slow: slow, SlowestAt: at}
}

func printReport(w io.Writer, rep *report) {
	if rep.Mode == "calibrate" {
		printCalibration(w, rep)
		return
	}
	fmt.Fprintf(w, "mode %s  bot %s", rep.Mode, rep.Bot)
	if rep.Opponent != "" {
		fmt.Fprintf(w, "  opponent %s", rep.Opponent)
	}
	if rep.Board != "" {
		fmt.Fprintf(w, "  board %s", rep.Board)
	}
	fmt.Fprintf(w, "\ngames %d  wins %d  losses %d  invalid answers %d", rep.Games, rep.Wins, rep.Losses, rep.Invalid)
	if rep.OppInvalid > 0 {
		fmt.Fprintf(w, "  (opponent invalid %d)", rep.OppInvalid)
	}
	fmt.Fprintln(w)
	if wr := rep.WinRate; wr != nil {
		fmt.Fprintf(w, "win rate %.1f%% [%.1f%% – %.1f%%] (Wilson 95%%)", 100*wr.Rate, 100*wr.Low95, 100*wr.High95)
		if g := rep.SeatGames; g[0] > 0 && g[1] > 0 {
			fmt.Fprintf(w, "  as seat 0 %.1f%% of %d, as seat 1 %.1f%% of %d", 100*float64(rep.SeatWins[0])/float64(g[0]), g[0], 100*float64(rep.SeatWins[1])/float64(g[1]), g[1])
		}
		fmt.Fprintln(w)
		if rep.Warmup > 0 {
			fmt.Fprintf(w, "after %d warm-up games (not counted)\n", rep.Warmup)
		}
	}
	if s := rep.Shots; s != nil {
		fmt.Fprintf(w, "shots mean %.2f  median %g  p90 %g  max %d  min %d\n", s.Mean, s.Median, s.P90, s.Max, s.Min)
	}
	if rep.BotShots != nil {
		b, o := rep.BotShots, rep.OppShots
		fmt.Fprintf(w, "to sink the other fleet (-full): bot mean %.2f median %g, opponent mean %.2f median %g, edge %+.2f ± %.2f shots\n",
			b.Mean, b.Median, o.Mean, o.Median, rep.ShotEdge.Mean, rep.ShotEdge.CI95)
	}
	l := rep.Latency
	fmt.Fprintf(w, "latency over %d requests: p50 %.3f ms  p99 %.3f ms  max %.3f ms  (%d over 100 ms)\n", l.Requests, l.P50ms, l.P99ms, l.Maxms, l.Slow)
	for _, c := range rep.Configs {
		status := "ok"
		if !c.OK {
			status = "FAIL"
		}
		fmt.Fprintf(w, "  %-4s %-40s shots %4d  init %.2f ms  turn p99 %.2f ms  max %.2f ms %s\n", status, c.Name, c.Shots, c.InitMs, c.P99ms, c.Maxms, c.Detail)
	}
	for _, why := range rep.InvalidWhy {
		fmt.Fprintln(w, "  invalid:", why)
	}
	printElapsed(w, rep)
}

func printElapsed(w io.Writer, rep *report) {
	if rep.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED: the figures cover the %d games finished\n", rep.Games)
	}
	fmt.Fprintf(w, "elapsed %.2f s\n", rep.ElapsedSecs)
}
