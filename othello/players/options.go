package players

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/spec"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/stdengine"
)

// Option is one option of the in-process engine: a key of an engine
// spec ("engine:depth=8") and othello-engine's flag of the same name.
type Option struct {
	Name  string
	Usage string
	// Alias is the option's older name, still read (a spec's key, a
	// flag).
	Alias string
	// Bool: a flag of it may stand alone (-ponder is -ponder=true).
	Bool bool
	set  func(p *Player, val string) error
}

// Options are the in-process engine's options, in the order -h lists
// them.
var Options = []Option{
	{Name: "depth", Usage: "fixed search depth `N`, 0–64 (0: time managed from the clock)", set: func(p *Player, v string) (err error) {
		p.Engine.MaxDepth, err = intIn(v, 0, 64)
		return err
	}},
	{Name: "movetime", Usage: "fixed `time` per move instead of time management, 0–5m (still capped by budget_ms)", set: func(p *Player, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > 5*time.Minute {
			return fmt.Errorf("want a duration 0–5m")
		}
		p.Engine.FixedTime = d
		return nil
	}},
	{Name: "tt-bits", Usage: "log2 of transposition-table entries, `N` 10–26 (default 19)", set: func(p *Player, v string) error {
		n, err := intIn(v, 10, 26)
		p.Engine.TTBits = uint(n)
		return err
	}},
	{Name: "threads", Usage: "std: `N` searchers at once, a parallel search, 1–64 (default 1); each leg's engine has its own", set: func(p *Player, v string) (err error) {
		p.Engine.Threads, err = intIn(v, 1, 64)
		return err
	}},
	{Name: "ponder", Bool: true, Usage: "std and anti: think on the opponent's time (between an answer and the next request), on one more thread (true/false)", set: func(p *Player, v string) (err error) {
		p.Ponder, err = boolOf(v)
		return err
	}},
	{Name: "selectivity", Alias: "std-sel", Usage: fmt.Sprintf("std: midgame ProbCut selectivity `N`, 0 (1.0σ) … 4 (2.6σ); %d: no ProbCut (default 1)", stdengine.SelExact), set: func(p *Player, v string) (err error) {
		p.Engine.Std.MidgameSel, err = intIn(v, 0, stdengine.SelExact)
		return err
	}},
	{Name: "probable-solves", Alias: "std-selective", Usage: "std: probable solves from `N` empties before the exact solve, 0–64 (0: none; default 6)", set: func(p *Player, v string) (err error) {
		p.Engine.Std.ProbableSolves, err = intIn(v, 0, 64)
		return err
	}},
	{Name: "solve-at", Usage: "solve positions of at most `N` empties exactly, at any depth, and never others, 0–64 (0: the clock decides)", set: func(p *Player, v string) (err error) {
		p.Engine.SolveAt, err = intIn(v, 0, 64)
		return err
	}},
	{Name: "without", Usage: "std: the parts of the search to switch off, to measure them, a `list` of etc, stability, sort-search, incremental (joined by + in a spec, by , or + in a flag)", set: func(p *Player, v string) error {
		w, err := stdengine.ParseWithout(strings.ReplaceAll(v, "+", ","))
		p.Engine.Std.Without = w
		return err
	}},
	{Name: "model", Usage: "an evaluation model `file`: a std or an anti model, replacing the embedded one of its game", set: func(p *Player, v string) error {
		m, err := stdengine.ReadModel(v)
		if err != nil {
			return err
		}
		if m.Misere {
			p.Engine.Std.AntiModel = m
		} else {
			p.Engine.Std.Model = m
		}
		return nil
	}},
	{Name: "mpc", Usage: "std: the ProbCut error model's five coefficients `A,B,C,D,E` (othello-train mpc prints them; joined by + in a spec) instead of the embedded evaluation's", set: func(p *Player, v string) error {
		m, err := stdengine.ParseErrorModel(v)
		p.Engine.Std.Errors = &m
		return err
	}},
	{Name: "generic-anti", Bool: true, Usage: "anti: play with the generic searcher and its hand-written evaluation instead of the std engine with the anti model (true/false)", set: func(p *Player, v string) (err error) {
		p.Engine.Std.GenericAnti, err = boolOf(v)
		return err
	}},
}

func intIn(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("want an integer %d–%d", lo, hi)
	}
	return n, nil
}

func boolOf(v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("want true or false")
	}
	return b, nil
}

// option finds an option by its name or alias.
func option(key string) *Option {
	for i := range Options {
		if o := &Options[i]; o.Name == key || o.Alias != "" && o.Alias == key {
			return o
		}
	}
	return nil
}

// OptionNames lists the options' names, for messages.
func OptionNames() string {
	names := make([]string, len(Options))
	for i, o := range Options {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// Engine is this binary's engine with the options given, in order (a
// later value of an option replaces an earlier one): the defaults of
// every place it is started (a table of 2^19 entries, one searcher per
// leg, DefaultStd), then the options.
func Engine(name string, opts ...spec.Option) (Player, error) {
	set := othello.DefaultStd()
	p := Player{Name: name, Kind: KindEngine, Engine: &othello.EngineOptions{TTBits: 19, Pool: 1, Std: &set}}
	for _, kv := range opts {
		o := option(kv.Key)
		if o == nil {
			return p, fmt.Errorf("unknown option %q (%s)", kv.Key, OptionNames())
		}
		if err := o.set(&p, kv.Value); err != nil {
			return p, fmt.Errorf("%s=%q: %w", kv.Key, kv.Value, err)
		}
	}
	return p, nil
}

// engine reads engine[:key=value,…].
func engine(sp spec.Spec) (Player, error) {
	opts, err := sp.Options()
	if err != nil {
		return Player{}, err
	}
	p, err := Engine(sp.Name(), opts...)
	if err != nil {
		return Player{}, fmt.Errorf("player %q: %w", sp, err)
	}
	return p, nil
}
