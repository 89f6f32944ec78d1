// Package agents holds the battleship referee's in-process opponents: the
// engine as the server drives it ("self"), the arena's stupidIA, the
// textbook density shooter ("dg") and the adaptive Dreadnought with its
// variants. docs/battleship.md describes each. An agent plays a whole run,
// so it may remember past games per opponent name, as a bot on the arena
// can.
package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
)

// Agent is an in-process duellist: one agent plays a whole run, so it may
// remember past games (per opponent name, as the arena names opponents).
// Agents must be safe for concurrent games.
type Agent interface {
	// Name is the agent's name as the arena would send it to its opponent.
	Name() string
	// NewGame starts one game against opponent; rng is the game's only
	// source of randomness (the referee pairs games by seeding it).
	NewGame(opponent string, r battleship.Rules, rng *rand.Rand) Game
}

// Game is one game of an agent.
type Game interface {
	// Place returns the fleet, or an error the arena would punish.
	Place() ([]battleship.Ship, error)
	// Shoot chooses a shot from the whole history, as play-turn sends it.
	Shoot(yours, his []battleship.Strike) (x, y int)
	// End tells the referee's agents the game is over (the arena tells a
	// bot nothing, so the engine's adapter ignores it).
	End(yours, his []battleship.Strike)
}

// New resolves an in-process agent name.
func New(spec string) (Agent, error) {
	switch spec {
	case "self":
		return &selfAgent{bot: battleship.NewBot(battleship.Options{}), label: "gamebot"}, nil
	case "stupid":
		return stupidAgent{}, nil
	case "dg":
		return dgAgent{}, nil
	case "dreadnought":
		return newDreadnought(dreadnoughtOptions{}), nil
	case "dreadnought-place": // learns only where the opponent shoots
		return newDreadnought(dreadnoughtOptions{label: spec, noOffense: true}), nil
	case "dreadnought-shoot": // learns only where the opponent's ships are
		return newDreadnought(dreadnoughtOptions{label: spec, noDefense: true}), nil
	case "dreadnought-static": // learns nothing
		return newDreadnought(dreadnoughtOptions{label: spec, noDefense: true, noOffense: true}), nil
	case "dreadnought-exact": // learns both, shoots with the exact posterior
		return newDreadnought(dreadnoughtOptions{label: spec, exact: true}), nil
	}
	return nil, fmt.Errorf("unknown in-process player %q: want %s", spec, NamesText())
}

// names are the names New knows, in the order a menu lists them.
var names = []string{"self", "stupid", "dg", "dreadnought", "dreadnought-place", "dreadnought-shoot", "dreadnought-static", "dreadnought-exact"}

// Names lists the names New knows: the engine first.
func Names() []string { return slices.Clone(names) }

// NamesText is Names for a message: "self, stupid, … or dreadnought-exact".
func NamesText() string {
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// selfAgent is the engine exactly as the server drives it: Init, then
// PlayTurn with the whole history every turn; nothing at the end.
type selfAgent struct {
	bot   *battleship.Bot
	label string
}

func (a *selfAgent) Name() string { return a.label }

func (a *selfAgent) NewGame(opponent string, r battleship.Rules, rng *rand.Rand) Game {
	return &selfGame{a: a, opp: opponent, r: r, seed: rng.Uint64()}
}

type selfGame struct {
	a    *selfAgent
	opp  string
	r    battleship.Rules
	seed uint64 // the game's, as GameSeed gives the server one
}

func (g *selfGame) Place() ([]battleship.Ship, error) {
	boats, err := g.a.bot.Init(g.opp, g.r, g.seed)
	if err != nil {
		return nil, &wire.InvalidAnswer{Reason: "init: " + err.Error()}
	}
	raw, _ := json.Marshal(boats)
	return wire.ArenaBoats(g.r, raw)
}

func (g *selfGame) Shoot(yours, his []battleship.Strike) (int, int) {
	return g.a.bot.PlayTurn(g.opp, g.r, yours, his, g.seed)
}

func (*selfGame) End(_, _ []battleship.Strike) {}

// stupidAgent is stupidPlayer in-process: stupidIA's placement and
// uniformly random shots, repeats included. It learns nothing.
type stupidAgent struct{}

func (stupidAgent) Name() string { return "stupidIA" }

func (stupidAgent) NewGame(_ string, r battleship.Rules, rng *rand.Rand) Game {
	return stupidGame{r: r, rng: rng}
}

type stupidGame struct {
	r   battleship.Rules
	rng *rand.Rand
}

func (g stupidGame) Place() ([]battleship.Ship, error) { return stupidFleet(g.r, g.rng) }

func (g stupidGame) Shoot(_, _ []battleship.Strike) (int, int) {
	return g.rng.IntN(g.r.W), g.rng.IntN(g.r.H)
}

func (stupidGame) End(_, _ []battleship.Strike) {}

// stupidFleet is stupidIA's placement: longest ships first, each dropped
// at a random position and orientation until it fits (its goto loop; on
// an impossible fleet it never answers, here it gives up like a timeout).
func stupidFleet(r battleship.Rules, rng *rand.Rand) ([]battleship.Ship, error) {
	occ := make([]bool, r.Cells())
	var ships []battleship.Ship
	for l := battleship.MaxLen; l >= 1; l-- {
		for range r.Fleet[l] {
			placed := false
			for range 100_000 {
				s := battleship.Ship{X: rng.IntN(r.W), Y: rng.IntN(r.H), L: l, Vertical: rng.IntN(2) == 1}
				if fitsFree(occ, r.W, r.H, s) {
					markShip(occ, r.W, s)
					ships = append(ships, s)
					placed = true
					break
				}
			}
			if !placed {
				return nil, errors.New("stupid: no placement (timeout)")
			}
		}
	}
	return ships, nil
}

// uniformFleet is a fleet drawn uniformly among the valid ones (the
// placement the textbook shooters assume), or an error for a fleet that
// cannot be placed.
func uniformFleet(r battleship.Rules, rng *rand.Rand) ([]battleship.Ship, error) {
	if s := battleship.RandomFleet(r, rng); s != nil {
		return s, nil
	}
	return nil, fmt.Errorf("no placement for %dx%d", r.W, r.H)
}

// board is a referee agent's view of the opponent's board: cell states
// folded from its own history, a strike at a time.
type board struct {
	r     battleship.Rules
	state []uint8
	seen  int // history entries folded
}

const (
	cUnknown uint8 = iota
	cMiss
	cHit
	cSunk
)

func newBoard(r battleship.Rules) *board {
	return &board{r: r, state: make([]uint8, r.Cells())}
}

// fold applies the strikes not yet seen, calling apply for each strike on
// an unshot cell (repeats and off-board strikes tell nothing new).
func (b *board) fold(yours []battleship.Strike, apply func(c int, res battleship.Result)) {
	for ; b.seen < len(yours); b.seen++ {
		s := yours[b.seen]
		if !s.OK || s.X < 0 || s.Y < 0 || s.X >= b.r.W || s.Y >= b.r.H {
			continue
		}
		c := s.Y*b.r.W + s.X
		if b.state[c] != cUnknown {
			continue
		}
		apply(c, s.Result)
	}
}

// pick returns the unknown cell with the highest score, ties broken
// uniformly at random; a random unknown cell when every score is 0 or
// less; 0,0 (a legal repeat) when no cell is unknown.
func (b *board) pick(score []float64, rng *rand.Rand) (int, int) {
	best, pick, seen := 0.0, -1, 0
	for c, s := range score {
		if b.state[c] != cUnknown || !(s > 0) {
			continue
		}
		switch {
		case pick < 0 || s > best*(1+1e-12):
			best, pick, seen = s, c, 1
		case s >= best*(1-1e-12):
			seen++
			if rng.IntN(seen) == 0 {
				pick = c
			}
		}
	}
	if pick < 0 {
		seen = 0
		for c, st := range b.state {
			if st == cUnknown {
				seen++
				if rng.IntN(seen) == 0 {
					pick = c
				}
			}
		}
	}
	if pick < 0 {
		return 0, 0
	}
	return pick % b.r.W, pick / b.r.W
}

// memo is a per-key store of an agent's memory, safe for concurrent games.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]*T
}

// with runs f on key's entry (created by mk), under the lock.
func (m *memo[T]) with(key string, mk func() *T, f func(*T)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = make(map[string]*T)
	}
	e := m.m[key]
	if e == nil {
		e = mk()
		m.m[key] = e
	}
	f(e)
}

func memoKey(opponent string, r battleship.Rules) string {
	return fmt.Sprintf("%s|%dx%d", opponent, r.W, r.H)
}

func fitsFree(occ []bool, w, h int, s battleship.Ship) bool {
	x2, y2 := s.End()
	if x2 >= w || y2 >= h {
		return false
	}
	for i := range s.L {
		c := s.Y*w + s.X + i
		if s.Vertical {
			c = (s.Y+i)*w + s.X
		}
		if occ[c] {
			return false
		}
	}
	return true
}

func markShip(occ []bool, w int, s battleship.Ship) {
	for i := range s.L {
		c := s.Y*w + s.X + i
		if s.Vertical {
			c = (s.Y+i)*w + s.X
		}
		occ[c] = true
	}
}
