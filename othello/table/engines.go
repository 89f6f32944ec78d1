package table

import (
	"fmt"

	"github.com/botarena/gamebot/internal/spec"
	"github.com/botarena/gamebot/othello/players"
)

// EngineSpec is an engine a table may seat: its id in the setup form,
// its title for people, and the player (othello/players) it is.
type EngineSpec struct {
	ID     string
	Title  string
	Player players.Player
}

// levels are our engine's strengths at a table, weakest first, as
// engine specs: a depth and the empties from which it plays perfectly,
// on a smaller table; the last is the engine as it plays on FlipSight
// (without clocks, players.UntimedMoveTime a move).
var levels = [...]string{
	"engine:depth=1,tt-bits=17",
	"engine:depth=2,solve-at=6,tt-bits=17",
	"engine:depth=4,solve-at=10,tt-bits=17",
	"engine:depth=6,solve-at=14,tt-bits=17",
	"engine:depth=8,solve-at=16,tt-bits=17",
	"engine:depth=10,solve-at=18,tt-bits=17",
	"engine:depth=12,solve-at=20,tt-bits=17",
	"engine",
}

// OurEngines are our engine's levels as table engines, strongest first
// (the default opponent is the engine as it plays on FlipSight).
func OurEngines() []EngineSpec {
	var out []EngineSpec
	for i := len(levels) - 1; i >= 0; i-- {
		n := i + 1
		p, err := players.Parse(levels[i])
		if err != nil {
			panic(fmt.Sprintf("othello table: level %d: %v", n, err))
		}
		title := fmt.Sprintf("gamebot, level %d (depth %d)", n, p.Engine.MaxDepth)
		if p.Engine.MaxDepth == 0 {
			title = fmt.Sprintf("gamebot, level %d (full strength: the clock, or %s a move)", n, players.UntimedMoveTime)
		}
		p.Name = title
		out = append(out, EngineSpec{ID: fmt.Sprintf("gamebot-%d", n), Title: title, Player: p})
	}
	return out
}

// ParseEngine reads an engine gamebot play offers besides ours, as its
// -othello-engine flag gives it: a player spec (othello/players) with a
// label, which is the engine's id in the setup form, of a command kind:
// NAME=jsonline:COMMAND (a FlipSight JSON-line engine) or
// NAME=nboard:COMMAND (an NBoard engine such as NTest or Edax, std only,
// run in the folder of its program so that it finds its data).
func ParseEngine(text string) (EngineSpec, error) {
	bad := fmt.Errorf("engine %q: want NAME=jsonline:COMMAND or NAME=nboard:COMMAND", text)
	sp, err := spec.Parse(text)
	if err != nil || sp.Label == "" || !sp.Is("jsonline") && !sp.Is(players.KindNBoard) {
		return EngineSpec{}, bad
	}
	p, err := players.Parse(text)
	if err != nil {
		return EngineSpec{}, fmt.Errorf("%w: %v", bad, err)
	}
	title := sp.Label + " (JSON-line engine)"
	if p.Kind == players.KindNBoard {
		title = sp.Label + " (NBoard engine, std only)"
	}
	return EngineSpec{ID: sp.Label, Title: title, Player: p}, nil
}
