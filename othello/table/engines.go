package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/botarena/gamebot/internal/spec"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/words"
)

// EngineSpec is an engine a table may seat: its id in the setup form,
// its title for people, and the player (othello/players) it is.
type EngineSpec struct {
	ID string
	// Title is the engine's name in English, as records name it.
	Title string
	// Key and Args write the title in a reader's language (an
	// othello/words key, "engine.level", with its arguments: ints and
	// strings); an engine without one is its Title in every language.
	Key    string
	Args   []any
	Player players.Player
}

// TitleIn is the engine's title in w's language.
func (e *EngineSpec) TitleIn(w words.Words) string {
	if e.Key == "" {
		return e.Title
	}
	return w.T(e.Key, e.Args...)
}

// option is the engine's entry in the setup form's menus, written as
// the hub's page template reads it: the title is a t action, so that
// each language's page names the engine in its words, and the id and
// any text are template literals, so that the hub's template escapes
// them like any other value.
func (e *EngineSpec) option() string {
	title := "{{" + strconv.Quote(e.Title) + "}}"
	if e.Key != "" {
		args := []string{strconv.Quote(words.Prefix + "." + e.Key)}
		for _, a := range e.Args {
			switch a := a.(type) {
			case int:
				args = append(args, strconv.Itoa(a))
			default:
				args = append(args, strconv.Quote(fmt.Sprint(a)))
			}
		}
		title = "{{t " + strings.Join(args, " ") + "}}"
	}
	return `<option value="{{` + strconv.Quote(e.ID) + `}}">` + title + `</option>`
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
		e := EngineSpec{ID: fmt.Sprintf("gamebot-%d", n), Key: "engine.level", Args: []any{n, p.Engine.MaxDepth}, Player: p}
		if p.Engine.MaxDepth == 0 {
			e.Key, e.Args = "engine.full", []any{n, int(players.UntimedMoveTime.Seconds())}
		}
		e.Title = e.TitleIn(words.Words{})
		e.Player.Name = e.Title
		out = append(out, e)
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
	e := EngineSpec{ID: sp.Label, Key: "engine.jsonline", Args: []any{sp.Label}, Player: p}
	if p.Kind == players.KindNBoard {
		e.Key = "engine.nboard"
	}
	e.Title = e.TitleIn(words.Words{})
	return e, nil
}
