// Package players is Othello's one registry of players: it reads a
// player spec in internal/spec's grammar, the same in every place an
// Othello engine is named (othello-match's -a and -b, flipsight's and
// othello-engine's engine options, gamebot play's -othello-engine and
// its levels), and starts the engine it names, one per leg:
//
//	engine[:key=value,…]            this binary's engine, in process (Options lists the keys)
//	jsonline:COMMAND                a command speaking FlipSight's JSON-line engine protocol
//	nboard[:depth=N,dir=D]:COMMAND  an NBoard engine such as NTest or Edax (std only)
//	COMMAND                         any other text: a JSON-line command (the older form)
//
// A command runs with /bin/sh -c, one process per leg; an NBoard engine
// runs in its program's folder (dir= names another), so that it finds its
// data. A label names the player in records and menus:
// "ntest=nboard:/opt/ntest/ntest x".
package players

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/spec"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/nboard"
	"github.com/botarena/gamebot/othello/wire"
)

// Kinds of player, as a record names them (record.Player.Kind).
const (
	KindEngine  = "engine"  // ours, in process
	KindCommand = "command" // a JSON-line engine command
	KindNBoard  = "nboard"  // an NBoard engine command
)

// Player is an engine a spec names, ready to be started for a leg.
type Player struct {
	// Name names it in records and messages: the spec's label, else the
	// spec as written.
	Name string
	// Kind is KindEngine, KindCommand or KindNBoard (or a Custom's).
	Kind string
	// Engine are the in-process engine's options (KindEngine).
	Engine *othello.EngineOptions
	// Ponder: the in-process engine thinks on the opponent's time.
	Ponder bool
	// Command is a command's text (run with /bin/sh -c).
	Command string
	// Dir is where an NBoard engine runs ("": this process's folder).
	Dir string
	// Depth is an NBoard engine's "set depth N" (0: its own default).
	Depth int

	start func(Leg) (wire.Engine, error) // a Custom player's
}

// Leg is what a player is started for.
type Leg struct {
	Mode othello.Mode
	// Timed: the leg has clocks. Without, an in-process engine that fixes
	// neither its depth nor its time a move searches UntimedMoveTime.
	Timed bool
	// Stderr is a command's stderr (nil: discarded).
	Stderr io.Writer
	// Cores, when set, are the cores the in-process engines of every leg
	// share (othello.EngineOptions.Cores).
	Cores *othello.Cores
}

// UntimedMoveTime is what our engine searches a move when no clock runs
// and no option fixes its depth or time: a person at a table without
// clocks waits this long.
const UntimedMoveTime = 2 * time.Second

// Parse reads a player spec. A spec of no kind this registry knows is a
// JSON-line command, as othello-match's -a and flipsight's --engine have
// always read one; a URL is refused (no Othello engine is reached by HTTP
// here).
func Parse(text string) (Player, error) {
	sp, err := spec.Parse(text)
	if err != nil {
		if strings.TrimSpace(text) == "" {
			return Player{}, err
		}
		return command(text, text), nil
	}
	switch {
	case sp.Is(KindEngine):
		return engine(sp)
	case sp.Is("jsonline"):
		cmd := strings.TrimSpace(sp.Arg)
		if cmd == "" {
			return Player{}, fmt.Errorf("player %q: name the command (jsonline:COMMAND)", sp)
		}
		return command(sp.Name(), cmd), nil
	case sp.Is(KindNBoard):
		return nboardOf(sp)
	case sp.Is("url"):
		return Player{}, fmt.Errorf("player %q: an Othello engine is a command or this binary's (engine, jsonline:COMMAND, nboard:COMMAND), not a URL", sp)
	}
	return command(text, text), nil
}

// command is a JSON-line engine command.
func command(name, cmd string) Player {
	return Player{Name: name, Kind: KindCommand, Command: cmd}
}

// NBoard is an NBoard engine command run in dir at depth (0: its own),
// as flipsight's --engine-nboard and othello-match's -b-nboard name one.
func NBoard(name, cmd, dir string, depth int) Player {
	return Player{Name: name, Kind: KindNBoard, Command: cmd, Dir: dir, Depth: depth}
}

// nboardOf reads nboard[:depth=N,dir=D]:COMMAND: options come before the
// command when every key=value before the first ":" is one of them.
func nboardOf(sp spec.Spec) (Player, error) {
	cmd := strings.TrimSpace(sp.Arg)
	var depth int
	dir, dirSet := "", false
	if head, rest, ok := strings.Cut(cmd, ":"); ok && nboardOptions(head) {
		opts, err := spec.Spec{Kind: KindNBoard, Arg: head, HasArg: true}.Options("depth", "dir")
		if err != nil {
			return Player{}, fmt.Errorf("player %q: %w", sp, err)
		}
		for _, o := range opts {
			switch o.Key {
			case "depth":
				if _, err := fmt.Sscanf(o.Value, "%d", &depth); err != nil || depth < 0 || depth > 64 {
					return Player{}, fmt.Errorf("player %q: depth=%q: want an integer 0–64", sp, o.Value)
				}
			case "dir":
				dir, dirSet = o.Value, true
			}
		}
		cmd = strings.TrimSpace(rest)
	}
	if cmd == "" {
		return Player{}, fmt.Errorf("player %q: name the command (nboard:COMMAND)", sp)
	}
	if prog := strings.Fields(cmd)[0]; !dirSet && strings.ContainsRune(prog, filepath.Separator) {
		dir = filepath.Dir(prog)
	}
	return NBoard(sp.Name(), cmd, dir, depth), nil
}

// nboardOptions reports whether s is a list of nboard's options.
func nboardOptions(s string) bool {
	for _, kv := range strings.Split(s, ",") {
		k, _, ok := strings.Cut(kv, "=")
		if k = strings.TrimSpace(k); !ok || k != "depth" && k != "dir" {
			return false
		}
	}
	return true
}

// Custom is a player made in code (a test's engine, a menu's entry that
// is no spec): start makes its engine for a leg.
func Custom(name, kind string, start func(Leg) (wire.Engine, error)) Player {
	return Player{Name: name, Kind: kind, start: start}
}

// StdOnly reports whether the player plays std only (an NBoard engine).
func (p Player) StdOnly() bool { return p.Kind == KindNBoard && p.start == nil }

// Start starts the player's engine for one leg; the caller closes it
// when the leg is over.
func (p Player) Start(l Leg) (wire.Engine, error) {
	switch {
	case p.start != nil:
		return p.start(l)
	case p.Kind == KindNBoard:
		if l.Mode != othello.Std {
			return nil, problem.Impossiblef("%s is an NBoard engine: it plays std only, not %s", p.Name, l.Mode)
		}
		return &nboard.Engine{Command: p.Command, Dir: p.Dir, Depth: p.Depth, Stderr: l.Stderr}, nil
	case p.Kind == KindCommand:
		return &jsonline.Engine{Command: p.Command, Stderr: l.Stderr}, nil
	case p.Engine == nil:
		return nil, fmt.Errorf("player %q: no engine", p.Name)
	}
	o := *p.Engine
	if l.Cores != nil {
		o.Cores = l.Cores
	}
	if !l.Timed && o.MaxDepth == 0 && o.FixedTime == 0 {
		o.FixedTime = UntimedMoveTime
	}
	e := othello.NewEngine(o)
	if p.Ponder {
		return &wire.Pondering{E: e}, nil
	}
	return wire.InProcess{E: e}, nil
}
