package table

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/nboard"
	"github.com/botarena/gamebot/othello/wire"
)

// Level is a strength of our engine at a table: a depth cap and the
// empties from which it plays perfectly (0: the clock decides both).
type Level struct {
	N        int
	Depth    int
	SolveAt  int
	MoveTime time.Duration // per move when no clock runs and nothing caps the depth
}

// Levels are our engine's strengths, weakest first; the last is the
// engine as it plays on FlipSight.
var levels = [...]Level{
	{N: 1, Depth: 1},
	{N: 2, Depth: 2, SolveAt: 6},
	{N: 3, Depth: 4, SolveAt: 10},
	{N: 4, Depth: 6, SolveAt: 14},
	{N: 5, Depth: 8, SolveAt: 16},
	{N: 6, Depth: 10, SolveAt: 18},
	{N: 7, Depth: 12, SolveAt: 20},
	{N: 8, MoveTime: 2 * time.Second},
}

// Levels returns our engine's strengths, weakest first.
func Levels() []Level { return levels[:] }

// OurEngines are our engine's levels as table engines, strongest first
// (the default opponent is the engine as it plays on FlipSight).
func OurEngines() []EngineSpec {
	var out []EngineSpec
	for i := len(levels) - 1; i >= 0; i-- {
		lv := levels[i]
		title := fmt.Sprintf("gamebot, level %d (depth %d)", lv.N, lv.Depth)
		if lv.Depth == 0 {
			title = fmt.Sprintf("gamebot, level %d (full strength: the clock, or %s a move)", lv.N, lv.MoveTime)
		}
		out = append(out, EngineSpec{ID: fmt.Sprintf("gamebot-%d", lv.N), Title: title, Kind: "engine",
			New: func(_ othello.Mode, timed bool) (wire.Engine, error) { return newOurs(lv, timed), nil }})
	}
	return out
}

// newOurs is our engine at level lv, one per leg and side: its own table.
func newOurs(lv Level, timed bool) wire.Engine {
	opt := othello.EngineOptions{TTBits: 17, Pool: 1, MaxDepth: lv.Depth, SolveAt: lv.SolveAt}
	if lv.Depth == 0 {
		opt.TTBits = 19
		if !timed {
			opt.FixedTime = lv.MoveTime
		}
	}
	return wire.InProcess{E: othello.NewEngine(opt)}
}

// ParseEngine reads an engine gamebot play offers besides ours, as its
// -othello-engine flag gives it: NAME=jsonline:COMMAND (a FlipSight
// JSON-line engine: a request a line in, a reply a line out) or
// NAME=nboard:COMMAND (an NBoard engine such as NTest or Edax, std only,
// run in the directory of its program so that it finds its data). The
// command runs with /bin/sh -c, one process per leg and side.
func ParseEngine(spec string) (EngineSpec, error) {
	name, rest, ok := strings.Cut(spec, "=")
	kind, command, ok2 := strings.Cut(rest, ":")
	name, command = strings.TrimSpace(name), strings.TrimSpace(command)
	if !ok || !ok2 || name == "" || command == "" || strings.ContainsAny(name, " \t\"<>&") {
		return EngineSpec{}, fmt.Errorf("engine %q: want NAME=jsonline:COMMAND or NAME=nboard:COMMAND", spec)
	}
	switch kind {
	case "jsonline":
		return EngineSpec{ID: name, Title: name + " (JSON-line engine)", Kind: "command",
			New: func(othello.Mode, bool) (wire.Engine, error) { return &jsonline.Engine{Command: command}, nil }}, nil
	case "nboard":
		dir := ""
		if prog := strings.Fields(command)[0]; strings.ContainsRune(prog, filepath.Separator) {
			dir = filepath.Dir(prog)
		}
		return EngineSpec{ID: name, Title: name + " (NBoard engine, std only)", Kind: "nboard",
			New: func(mode othello.Mode, _ bool) (wire.Engine, error) {
				if mode != othello.Std {
					return nil, problem.Impossiblef("%s is an NBoard engine: it plays std only, not %s", name, mode)
				}
				return &nboard.Engine{Command: command, Dir: dir}, nil
			}}, nil
	}
	return EngineSpec{}, fmt.Errorf("engine %q: kind %q: want jsonline or nboard", spec, kind)
}
