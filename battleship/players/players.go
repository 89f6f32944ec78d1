// Package players is battleship's one registry of players: it reads a
// player spec in internal/spec's grammar, the same in every place a
// battleship player is named (battleref's -bot and -opponent, gamebot
// play's battleship table):
//
//	self                this module's engine (also: engine, gamebot)
//	stupid, dg, dreadnought, dreadnought-place, dreadnought-shoot,
//	dreadnought-static, dreadnought-exact
//	                    the referee's in-process agents (battleship/agents)
//	url:URL, or a URL   a botsarena bot server at URL (http or https)
//	LABEL=…             any of these, named LABEL in reports and records
//
// Who plays "self" is the caller's: battleref's HTTP modes start the
// production server on a loopback port, its in-process mode and a table
// play the engine in process.
package players

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/internal/spec"
)

// Entry is a player a spec names: an in-process agent or a bot server.
type Entry struct {
	// Name is the player as reports and records name it: the spec's
	// label, else the spec as written.
	Name string
	// Agent is an agents.New name (self for the engine); "" for a URL.
	Agent string
	URL   string
}

// Self reports the engine.
func (e Entry) Self() bool { return e.Agent == "self" }

// Agent resolves a spec that must name an in-process agent, and starts
// it; the error of any other spec says which agents there are.
func Agent(text string) (Entry, agents.Agent, error) {
	e, err := Resolve(text)
	if err != nil || e.Agent == "" {
		return Entry{}, nil, fmt.Errorf("unknown in-process player %q: want %s", strings.TrimSpace(text), agents.NamesText())
	}
	a, err := agents.New(e.Agent)
	return e, a, err
}

// aliases are other names of the engine: a table's setup names it
// "engine", and its opponents know it as "gamebot".
var aliases = map[string]string{"engine": "self", "gamebot": "self"}

// Resolve reads a player spec.
func Resolve(text string) (Entry, error) {
	sp, err := spec.Parse(text)
	if err != nil {
		return Entry{}, unknown(strings.TrimSpace(text))
	}
	e := Entry{Name: sp.Name()}
	if sp.Is("url") {
		if u, err := url.Parse(sp.Arg); err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
			return Entry{}, fmt.Errorf("player %q: not a URL with a host", sp.Arg)
		}
		e.URL = sp.Arg
		return e, nil
	}
	name := strings.ToLower(sp.Kind)
	if a, ok := aliases[name]; ok {
		name = a
	}
	if sp.HasArg || !known(name) {
		return Entry{}, unknown(sp.Body())
	}
	e.Agent = name
	return e, nil
}

// Names are the agents' names, the engine first, as a menu offers them.
func Names() []string { return agents.Names() }

func known(name string) bool {
	for _, n := range agents.Names() {
		if n == name {
			return true
		}
	}
	return false
}

func unknown(text string) error {
	return fmt.Errorf("unknown in-process player %q: want %s, or a URL", text, agents.NamesText())
}
