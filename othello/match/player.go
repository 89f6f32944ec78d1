package match

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/nboard"
	"github.com/botarena/gamebot/othello/stdengine"
	"github.com/botarena/gamebot/othello/wire"
)

// A Player is an engine a match plays, as othello-match's -a and -b name
// it. The spec "engine", or
// "engine:key=value,…", is this binary's engine played in process, with
// the options of othello-engine's flags of the same names:
//
//	depth=N          fixed search depth (0–64; 0: time managed)
//	movetime=D       fixed time per move (0–5m)
//	tt-bits=N        log2 of transposition-table entries (10–26)
//	std-sel=N        std: midgame ProbCut selectivity (0–5; 5: none)
//	std-selective=N  std: probable solves from N empties before the exact solve
//	without=P+P      std: parts switched off (etc, stability, sort-search, incremental)
//	model=FILE       an evaluation model file (std or anti), replacing the embedded one of its game
//	generic-anti=B   anti: the generic searcher and its hand-written evaluation (true/false)
//	threads=N        std: searchers at once, a parallel search (1–64); both legs of a match
//	                 search at once unless Config.Sequential, each on its own threads
//	ponder=B         std and anti: think on the opponent's time, on one more thread
//	                 (wire.Pondering; true/false)
//
// An unknown option or a bad value is an error naming it. Any other spec
// is a command (run with /bin/sh -c, one process per leg) speaking the
// JSON-line protocol, or NBoard when NBoard is set.
type Player struct {
	Spec    string
	InProc  *othello.EngineOptions // nil: a command
	NBoard  bool                   // the command speaks NBoard
	NBDir   string                 // its working directory
	NBDepth int                    // "set depth N" when > 0
	Ponder  bool                   // in process: think on the opponent's time
}

const engineSpec = "engine"

// ParsePlayer reads a spec.
func ParsePlayer(spec string) (Player, error) {
	p := Player{Spec: spec}
	name, opts, hasOpts := strings.Cut(spec, ":")
	if name != engineSpec {
		if strings.TrimSpace(spec) == "" {
			return p, fmt.Errorf("empty player")
		}
		return p, nil
	}
	set := othello.DefaultStd()
	o := othello.EngineOptions{TTBits: 19, Pool: 1, Std: &set}
	p.InProc = &o
	if !hasOpts {
		return p, nil
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(opts, ",") {
		key, val, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		switch {
		case !ok:
			return p, fmt.Errorf("player %q: option %q has no value (key=value)", spec, key)
		case seen[key]:
			return p, fmt.Errorf("player %q: option %q given twice", spec, key)
		}
		seen[key] = true
		if err := p.setOption(key, strings.TrimSpace(val)); err != nil {
			return p, fmt.Errorf("player %q: %w", spec, err)
		}
	}
	return p, nil
}

func (p *Player) setOption(key, val string) error {
	o := p.InProc
	intIn := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(val)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s=%q: want an integer %d–%d", key, val, lo, hi)
		}
		return n, nil
	}
	var err error
	switch key {
	case "depth":
		o.MaxDepth, err = intIn(0, 64)
	case "movetime":
		d, perr := time.ParseDuration(val)
		if perr != nil || d < 0 || d > 5*time.Minute {
			return fmt.Errorf("%s=%q: want a duration 0–5m", key, val)
		}
		o.FixedTime = d
	case "tt-bits":
		var n int
		n, err = intIn(10, 26)
		o.TTBits = uint(n)
	case "std-sel":
		o.Std.MidgameSel, err = intIn(0, stdengine.SelExact)
	case "std-selective":
		o.Std.ProbableSolves, err = intIn(0, 64)
	case "without":
		w, perr := stdengine.ParseWithout(strings.ReplaceAll(val, "+", ","))
		if perr != nil {
			return fmt.Errorf("%s=%q: %w", key, val, perr)
		}
		o.Std.Without = w
	case "model":
		b, rerr := os.ReadFile(val)
		if rerr != nil {
			return fmt.Errorf("%s=%q: %w", key, val, rerr)
		}
		m, derr := stdengine.DecodeModel(b)
		if derr != nil {
			return fmt.Errorf("%s=%q: %w", key, val, derr)
		}
		if m.Misere {
			o.Std.AntiModel = m
		} else {
			o.Std.Model = m
		}
	case "threads":
		o.Threads, err = intIn(1, 64)
	case "generic-anti", "ponder":
		b, perr := strconv.ParseBool(val)
		if perr != nil {
			return fmt.Errorf("%s=%q: want true or false", key, val)
		}
		if key == "ponder" {
			p.Ponder = b
		} else {
			o.Std.GenericAnti = b
		}
	default:
		return fmt.Errorf("unknown option %q (depth, movetime, tt-bits, std-sel, std-selective, without, model, threads, generic-anti, ponder)", key)
	}
	return err
}

// NewEngine starts the player's engine for one leg (stderr: the
// command's, nil discards it).
func (p Player) NewEngine(stderr io.Writer) wire.Engine {
	switch {
	case p.InProc != nil && p.Ponder:
		return &wire.Pondering{E: othello.NewEngine(*p.InProc)}
	case p.InProc != nil:
		return wire.InProcess{E: othello.NewEngine(*p.InProc)}
	case p.NBoard:
		return &nboard.Engine{Command: p.Spec, Dir: p.NBDir, Depth: p.NBDepth, Stderr: stderr}
	}
	return &jsonline.Engine{Command: p.Spec, Stderr: stderr}
}
