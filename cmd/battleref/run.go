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
	"github.com/botarena/gamebot/battleship/remote"
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
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if o.Seed == 0 {
		o.Seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "battleref: seed %d\n", o.Seed)
	}
	o.Progress = progressTo(stderr)
	rep, err := o.play(ctx)
	if err != nil {
		return err
	}
	if o.json {
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
	case rep.Invalid > 0 && !o.json: // -json carries the count for the caller to judge
		return fmt.Errorf("%d invalid answers from the bot under test", rep.Invalid)
	}
	return nil
}

// options are a run's flags.
type options struct {
	referee.Setup
	referee.HTTP
	mode, bot, opponent string
	hidden, record      string
	warmup, maxCells    int
	full, json          bool
	slowInit            time.Duration
}

// parse reads and checks the flags of a run.
func parse(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("battleref", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	var width, height int
	var fleet string
	fs.StringVar(&o.mode, "mode", "target", "target | duel | duel-inproc | configs | calibrate")
	fs.StringVar(&o.bot, "bot", "self", `bot under test: "self", a player below or a URL`)
	fs.StringVar(&o.opponent, "opponent", "stupid", `duel opponent: "self", "stupid", "dg", "dreadnought" (also -place, -shoot, -static, -exact) or a URL; "label=…" names any of them`)
	fs.BoolVar(&o.full, "full", false, "duel-inproc: play each game until both fleets are sunk and report both sides' shots (a diagnostic: the arena stops at the first, and learning players then see longer games)")
	fs.IntVar(&o.warmup, "warmup", 0, "duel-inproc: games played first and not counted (learning players keep what they learnt)")
	fs.IntVar(&o.Games, "n", 1000, "number of games")
	fs.IntVar(&width, "w", 10, "board width")
	fs.IntVar(&height, "h", 10, "board height")
	fs.StringVar(&fleet, "fleet", "0,1,2,1,1,0", "ship1..ship6 counts")
	fs.IntVar(&o.Concurrency, "concurrency", 0, "games played at once (0 = 1; calibrate: the number of CPUs)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed for hidden fleets (0: a random seed, printed)")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.IntVar(&o.MaxShots, "max-shots", 0, "shots after which a game counts as lost (0 = 2 x cells + 10)")
	fs.IntVar(&o.maxCells, "max-cells", 0, "configs mode: skip boards with more cells (0 = play all)")
	fs.StringVar(&o.record, "record", "", "duel modes: write a game record per game (JSON Lines) into this folder: both fleets, every shot and its result, latencies, the winner")
	fs.DurationVar(&o.Timeout, "timeout", remote.ArenaTimeout, "HTTP bots: the limit on one exchange, as the arena's; a bot over it loses the game")
	fs.DurationVar(&o.slowInit, "slow-init", referee.DefaultSlowInit, "configs mode: an answer to an impossible fleet slower than this fails")
	fs.StringVar(&o.hidden, "hidden", "uniform", `target and calibrate modes: hidden fleets "uniform" (all placements equally likely) or "engine" (this module's placement)`)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	f, err := parseFleet(fleet)
	if err != nil {
		return nil, err
	}
	o.Rules = battleship.Rules{W: width, H: height, Fleet: f}
	if err := o.check(fs); err != nil {
		return nil, err
	}
	o.Self = startSelf
	return o, nil
}

// check refuses flags that do not go together, and prepares -record's
// folder.
func (o *options) check(fs *flag.FlagSet) error {
	if o.hidden != "uniform" && o.hidden != "engine" {
		return fmt.Errorf("-hidden %q: want uniform or engine", o.hidden)
	}
	if o.Games < 1 || o.Concurrency < 0 || o.warmup < 0 {
		return errors.New("-n must be >= 1, -concurrency and -warmup >= 0")
	}
	duel := o.mode == "duel" || o.mode == "duel-inproc"
	var misplaced error
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "opponent" && !duel:
			misplaced = fmt.Errorf("-opponent %q: -mode %s plays no opponent (duel and duel-inproc do)", o.opponent, o.mode)
		case f.Name == "bot" && o.mode == "calibrate":
			misplaced = fmt.Errorf("-bot %q: -mode calibrate plays its own shooters", o.bot)
		}
	})
	if misplaced != nil {
		return misplaced
	}
	if o.record != "" {
		if !duel {
			return fmt.Errorf("-record applies to -mode duel and duel-inproc, not %q", o.mode)
		}
		if err := os.MkdirAll(o.record, 0o755); err != nil {
			return err
		}
	}
	if o.Concurrency == 0 {
		o.Concurrency = 1
		if o.mode == "calibrate" {
			o.Concurrency = runtime.NumCPU()
		}
	}
	return nil
}

// play runs the mode.
func (o *options) play(ctx context.Context) (*referee.Report, error) {
	switch o.mode {
	case "target":
		return referee.Target(ctx, referee.TargetConfig{Setup: o.Setup, HTTP: o.HTTP, Bot: o.bot, Hidden: o.hidden})
	case "duel":
		return referee.Duel(ctx, referee.DuelConfig{Setup: o.Setup, HTTP: o.HTTP, Bot: o.bot, Opponent: o.opponent, RecordDir: o.record})
	case "duel-inproc":
		return referee.DuelInproc(ctx, referee.DuelInprocConfig{Setup: o.Setup, Bot: o.bot, Opponent: o.opponent,
			Warmup: o.warmup, Full: o.full, RecordDir: o.record})
	case "configs":
		return referee.Configs(ctx, referee.ConfigsConfig{HTTP: o.HTTP, Bot: o.bot, Seed: o.Seed, MaxShots: o.MaxShots,
			MaxCells: o.maxCells, SlowInit: o.slowInit})
	case "calibrate":
		return referee.Calibrate(ctx, referee.CalibrateConfig{Setup: o.Setup, Hidden: o.hidden})
	}
	return nil, fmt.Errorf("unknown -mode %q: want target, duel, duel-inproc, configs or calibrate", o.mode)
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
