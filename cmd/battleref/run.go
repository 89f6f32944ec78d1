package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/internal/cli"
)

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
	var c referee.Config
	var width, height int
	var jsonOut bool
	var fleet string
	fs.StringVar(&c.Mode, "mode", "target", "target | duel | duel-inproc | configs | calibrate")
	fs.StringVar(&c.Bot, "bot", "self", `bot under test: "self", a player below or a URL`)
	fs.StringVar(&c.Opponent, "opponent", "stupid", `duel opponent: "self", "stupid", "dg", "dreadnought" (also -place, -shoot, -static, -exact) or a URL`)
	fs.BoolVar(&c.Full, "full", false, "duel-inproc: play each game until both fleets are sunk and report both sides' shots (a diagnostic: the arena stops at the first, and learning players then see longer games)")
	fs.IntVar(&c.Warmup, "warmup", 0, "duel-inproc: games played first and not counted (learning players keep what they learnt)")
	fs.IntVar(&c.Games, "n", 1000, "number of games")
	fs.IntVar(&width, "w", 10, "board width")
	fs.IntVar(&height, "h", 10, "board height")
	fs.StringVar(&fleet, "fleet", "0,1,2,1,1,0", "ship1..ship6 counts")
	fs.IntVar(&c.Concurrency, "concurrency", 0, "games played at once (0 = 1; calibrate: the number of CPUs)")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed for hidden fleets (0: a random seed, printed)")
	fs.BoolVar(&jsonOut, "json", false, "print the report as JSON")
	fs.IntVar(&c.MaxShots, "max-shots", 0, "shots after which a game counts as lost (0 = 2 x cells + 10)")
	fs.IntVar(&c.MaxCells, "max-cells", 0, "configs mode: skip boards with more cells (0 = play all)")
	fs.StringVar(&c.RecordDir, "record", "", "duel modes: write a game record per game (JSON Lines) into this folder: both fleets, every shot and its result, latencies, the winner")
	fs.DurationVar(&c.Timeout, "timeout", referee.ArenaTimeout, "HTTP bots: the limit on one exchange, as the arena's; a bot over it loses the game")
	fs.DurationVar(&c.SlowInit, "slow-init", referee.DefaultSlowInit, "configs mode: an answer to an impossible fleet slower than this fails")
	fs.StringVar(&c.Hidden, "hidden", "uniform", `target and calibrate modes: hidden fleets "uniform" (all placements equally likely) or "engine" (this module's placement)`)
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
	c.Rules = battleship.Rules{W: width, H: height, Fleet: f}
	if c.Hidden != "uniform" && c.Hidden != "engine" {
		return fmt.Errorf("-hidden %q: want uniform or engine", c.Hidden)
	}
	if c.Games < 1 || c.Concurrency < 0 || c.Warmup < 0 {
		return errors.New("-n must be >= 1, -concurrency and -warmup >= 0")
	}
	duel := c.Mode == "duel" || c.Mode == "duel-inproc"
	var misplaced error
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "opponent" && !duel:
			misplaced = fmt.Errorf("-opponent %q: -mode %s plays no opponent (duel and duel-inproc do)", c.Opponent, c.Mode)
		case f.Name == "bot" && c.Mode == "calibrate":
			misplaced = fmt.Errorf("-bot %q: -mode calibrate plays its own shooters", c.Bot)
		}
	})
	if misplaced != nil {
		return misplaced
	}
	if c.RecordDir != "" {
		if !duel {
			return fmt.Errorf("-record applies to -mode duel and duel-inproc, not %q", c.Mode)
		}
		if err := os.MkdirAll(c.RecordDir, 0o755); err != nil {
			return err
		}
	}
	if c.Concurrency == 0 {
		c.Concurrency = 1
		if c.Mode == "calibrate" {
			c.Concurrency = runtime.NumCPU()
		}
	}
	if c.Seed == 0 {
		c.Seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "battleref: seed %d\n", c.Seed)
	}
	rep, err := referee.Run(ctx, c, startSelf, progressTo(stderr))
	if err != nil {
		return err
	}
	if jsonOut {
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
	case rep.Invalid > 0 && !jsonOut: // -json carries the count for the caller to judge
		return fmt.Errorf("%d invalid answers from the bot under test", rep.Invalid)
	}
	return nil
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

// progressTo returns a progress printer when w is a terminal, else nil.
func progressTo(w io.Writer) func(done, total int) {
	if !cli.IsTerminal(w) {
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

func printReport(w io.Writer, rep *referee.Report) {
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

func printCalibration(w io.Writer, rep *referee.Report) {
	fmt.Fprintf(w, "mode calibrate  board %s  hidden fleets %s  seed %d  games %d\n", rep.Board, rep.Hidden, rep.Seed, rep.Games)
	fmt.Fprintf(w, "%-13s %-26s %9s %15s %7s %5s %5s  %s\n", "shooter", "information", "finished", "mean ± 95% CI", "median", "p90", "max", "vs self (paired)")
	for _, c := range rep.Calibration {
		vs := "-"
		if c.VsSelf != nil {
			vs = fmt.Sprintf("%+.2f ± %.2f", c.VsSelf.Mean, c.VsSelf.CI95)
		}
		fmt.Fprintf(w, "%-13s %-26s %9s %15s %7g %5g %5d  %s\n", c.Shooter, c.Information,
			fmt.Sprintf("%d/%d", c.Finished, c.Games), fmt.Sprintf("%.2f ± %.2f", c.Shots.Mean, c.MeanCI95),
			c.Shots.Median, c.Shots.P90, c.Shots.Max, vs)
	}
	printElapsed(w, rep)
}

func printElapsed(w io.Writer, rep *referee.Report) {
	if rep.Interrupted {
		fmt.Fprintf(w, "INTERRUPTED: the figures cover the %d games finished\n", rep.Games)
	}
	fmt.Fprintf(w, "elapsed %.2f s\n", rep.ElapsedSecs)
}
