package table

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

// action is what the page sends.
type action struct {
	// Type: place, remove, clear, random, bot, start (placing); shoot
	// (playing); explain (over).
	Type     string `json:"type"`
	X        *int   `json:"x"`
	Y        *int   `json:"y"`
	Len      int    `json:"len"`
	Vertical bool   `json:"vertical"`
	// At is a typed shot: "x,y".
	At   string `json:"at"`
	Shot *int   `json:"shot"`
}

// Act applies the person's action decided on version seq; a watcher
// decides nothing. A decision of the game's (the fleet, a shot) is handed
// to the person's player, and Act returns once the game has played it.
func (g *game) Act(v tables.Viewer, seq int, body []byte) error {
	var a action
	if err := problem.DecodeStrict(body, &a); err != nil {
		return err
	}
	r := readerOf(v)
	if v.Seat.Watching() {
		return tables.NotYours("%s", r.T("err.watcher"))
	}
	g.actMu.Lock()
	defer g.actMu.Unlock()
	g.mu.Lock()
	if seq != g.seq {
		cur := g.seq
		g.mu.Unlock()
		return problem.New(problem.Stale, "%s", r.T("err.stale", seq, cur))
	}
	d, err := g.apply(r, a)
	if err != nil {
		g.mu.Unlock()
		return err
	}
	if d == nil {
		g.seq++
		g.mu.Unlock()
		g.changed(nil)
		return nil
	}
	played := make(chan struct{})
	g.played = played
	g.mu.Unlock()
	return g.hand(r, a.Type, d, played)
}

// decision is the person's decision for the game: their fleet or a shot.
type decision struct {
	fleet  []battleship.Ship
	target string
}

// hand gives the game the person's decision and waits until it is
// played; a game over meanwhile (the bot lost at init) refuses it.
func (g *game) hand(r reader, what string, d *decision, played chan struct{}) error {
	sent := false
	if d.fleet != nil {
		select {
		case g.you.fleets <- d.fleet:
			sent = true
		case <-g.done:
		}
	} else {
		select {
		case g.you.shots <- d.target:
			sent = true
		case <-g.done:
		}
	}
	if sent {
		select {
		case <-played:
			return nil
		case <-g.done:
			// The game may have ended with this very decision: played
			// is closed before the game's goroutine is over.
			select {
			case <-played:
				return nil
			default:
			}
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.played = nil
	return tables.Illegal(g.actionsOf(), "%s", r.T("err.notNow", what, r.T("now.over")))
}

// actionsOf are the action types a phase accepts.
func (g *game) actionsOf() []string {
	switch g.phase {
	case phasePlace:
		return []string{"place", "remove", "clear", "random", "bot", "start"}
	case phasePlay:
		if g.turn() == g.s.you {
			return []string{"shoot"}
		}
	case phaseOver:
		if len(g.maps) > 0 {
			return []string{"explain"}
		}
	}
	return []string{}
}

// apply applies a (the caller holds the lock); a refused action changes
// nothing, and says why in r's language. It returns the person's
// decision for the game, if a is one.
func (g *game) apply(rd reader, a action) (*decision, error) {
	if !slices.Contains(g.actionsOf(), a.Type) {
		why := rd.T(map[string]string{phasePlace: "now.placing", phaseWait: "now.botPlacing", phaseOver: "now.over"}[g.phase])
		if g.phase == phasePlay {
			why = rd.T("now.turn", g.opp.label())
		}
		return nil, tables.Illegal(g.actionsOf(), "%s", rd.T("err.notNow", a.Type, why))
	}
	r := g.s.r
	switch a.Type {
	case "place":
		return nil, g.place(rd, a)
	case "remove":
		if a.X == nil || a.Y == nil {
			return nil, problem.Malformedf(`remove: {"type": "remove", "x": column, "y": row}`)
		}
		for i, s := range g.placed {
			if covers(s, *a.X, *a.Y) {
				g.placed = slices.Delete(g.placed, i, i+1)
				g.sayT("log.removed", s.L, s.X, s.Y)
				return nil, nil
			}
		}
		return nil, tables.Illegal(boats(g.placed), "%s", rd.T("err.noShipAt", *a.X, *a.Y))
	case "clear":
		g.placed = nil
		g.sayT("log.cleared")
	case "random":
		g.placed = battleship.RandomFleet(r, g.rng)
		g.sayT("log.random")
	case "bot":
		boats, err := battleship.NewBot(battleship.Options{}).Init(g.opp.label(), r, g.rng.Uint64())
		if err != nil {
			return nil, tables.Illegal(g.actionsOf(), "%s", rd.T("err.botPlace"))
		}
		raw, _ := json.Marshal(boats)
		ships, err := wire.ArenaBoats(r, raw)
		if err != nil {
			return nil, err
		}
		g.placed = ships
		g.sayT("log.botPlace")
	case "start":
		if left := g.left(); len(left) > 0 {
			return nil, tables.Illegal([]string{"place", "random", "bot"}, "%s", rd.T("err.incomplete", lengths(left)))
		}
		return &decision{fleet: slices.Clone(g.placed)}, nil
	case "shoot":
		return g.shoot(rd, a)
	case "explain":
		if a.Shot == nil || *a.Shot < 0 || *a.Shot >= len(g.maps) {
			return nil, tables.Illegal([]string{fmt.Sprintf("shot 0..%d", len(g.maps)-1)}, "%s", rd.T("err.noMap"))
		}
		g.shown = *a.Shot
	}
	return nil, nil
}

// place puts a ship of the person's (the caller holds the lock).
func (g *game) place(rd reader, a action) error {
	r := g.s.r
	left := g.left()
	if a.X == nil || a.Y == nil {
		return problem.Malformedf(`place: {"type": "place", "x": column, "y": row, "len": length, "vertical": false}`)
	}
	if !slices.Contains(left, a.Len) {
		return tables.Illegal(left, "%s", rd.T("err.noLength", a.Len))
	}
	s := battleship.Ship{X: *a.X, Y: *a.Y, L: a.Len, Vertical: a.Vertical && a.Len > 1}
	dir := "dir.across"
	if s.Vertical {
		dir = "dir.down"
	}
	// One short sentence for the person; the places it fits, for tools,
	// in the refusal's valid list.
	if x2, y2 := s.End(); s.X < 0 || s.Y < 0 || x2 >= r.W || y2 >= r.H {
		return tables.Illegal(g.placements(a.Len), "%s", rd.T("err.offBoard", s.L, s.X, s.Y, rd.T(dir), r.W, r.H))
	}
	ships := append(slices.Clone(g.placed), s)
	if battleship.CheckPlacement(battleship.Rules{W: r.W, H: r.H, Fleet: fleetOf(ships)}, ships) != nil {
		return tables.Illegal(g.placements(a.Len), "%s", rd.T("err.overlap", s.L, s.X, s.Y, rd.T(dir)))
	}
	g.placed = ships
	g.say(func(r reader) string { return r.T("log.placed", s.L, s.X, s.Y, r.T(dir)) })
	return nil
}

// lengths writes ship lengths as a list: "3, 2, 2".
func lengths(ls []int) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strconv.Itoa(l)
	}
	return strings.Join(out, ", ")
}

// shoot checks the person's shot (the caller holds the lock).
func (g *game) shoot(rd reader, a action) (*decision, error) {
	r := g.s.r
	var x, y int
	switch {
	case a.X != nil && a.Y != nil:
		x, y = *a.X, *a.Y
	case a.At != "":
		xs, ys, ok := strings.Cut(a.At, ",")
		var err1, err2 error
		x, err1 = strconv.Atoi(strings.TrimSpace(xs))
		y, err2 = strconv.Atoi(strings.TrimSpace(ys))
		if !ok || err1 != nil || err2 != nil {
			return nil, tables.Illegal(g.unshot(), "%s", rd.T("err.notCell", a.At))
		}
	default:
		return nil, problem.Malformedf(`shoot: {"type": "shoot", "x": column, "y": row} or {"type": "shoot", "at": "x,y"}`)
	}
	if x < 0 || y < 0 || x >= r.W || y >= r.H {
		return nil, tables.Illegal(g.unshot(), "%s", rd.T("err.shotOff", x, y, r.W, r.H, r.W-1, r.H-1))
	}
	t := battleship.FormatTarget(x, y)
	for _, f := range g.fired {
		if f.seat == g.s.you && f.target == t {
			// The arena would take it (a wasted turn); a person's
			// misclick is refused instead.
			return nil, tables.Illegal(g.unshot(), "%s", rd.T("err.again", t))
		}
	}
	return &decision{target: t}, nil
}

// left lists the lengths the person has still to place, longest first.
func (g *game) left() []int {
	f := g.s.r.Fleet
	for _, s := range g.placed {
		f[s.L]--
	}
	out := []int{}
	for l := battleship.MaxLen; l >= 1; l-- {
		for range max(f[l], 0) {
			out = append(out, l)
		}
	}
	return out
}

// unshot lists the cells the person has not fired at (the first
// validMax).
func (g *game) unshot() []string {
	r := g.s.r
	shot := map[string]bool{}
	for _, f := range g.fired {
		if f.seat == g.s.you {
			shot[f.target] = true
		}
	}
	out := []string{}
	for c := 0; c < r.Cells() && len(out) < validMax; c++ {
		if t := battleship.FormatTarget(c%r.W, c/r.W); !shot[t] {
			out = append(out, t)
		}
	}
	return out
}

// placements lists where a ship of length l fits among the person's
// ships, as the arena writes boats (the first validMax).
func (g *game) placements(l int) []string {
	r := g.s.r
	out := []string{}
	for c := 0; c < r.Cells() && len(out) < validMax; c++ {
		for _, v := range []bool{false, true} {
			if v && l == 1 {
				continue
			}
			s := battleship.Ship{X: c % r.W, Y: c / r.W, L: l, Vertical: v}
			ships := append(slices.Clone(g.placed), s)
			if battleship.CheckPlacement(battleship.Rules{W: r.W, H: r.H, Fleet: fleetOf(ships)}, ships) == nil {
				out = append(out, s.String())
			}
		}
	}
	return out
}

func fleetOf(ships []battleship.Ship) battleship.Fleet {
	var f battleship.Fleet
	for _, s := range ships {
		if s.L >= 1 && s.L <= battleship.MaxLen {
			f[s.L]++
		}
	}
	return f
}

func boats(ships []battleship.Ship) []string {
	out := make([]string, len(ships))
	for i, s := range ships {
		out[i] = s.String()
	}
	return out
}

func covers(s battleship.Ship, x, y int) bool {
	x2, y2 := s.End()
	return x >= s.X && x <= x2 && y >= s.Y && y <= y2
}

// Summary is the table's line in the lobby, in p's language (the lobby
// shows a table to its creator, the person at it).
func (g *game) Summary(p *i18n.Printer) tables.Summary {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := player(p)
	key := map[string]string{phasePlace: "status.placing", phaseWait: "status.waiting", phasePlay: "status.botTurn", phaseOver: "status.lost"}[g.phase]
	switch {
	case g.phase == phasePlay && g.turn() == g.s.you:
		key = "status.yourTurn"
	case g.phase == phaseOver && g.winner == g.s.you:
		key = "status.won"
	}
	st := r.T(key)
	if g.phase == phasePlay {
		st = r.T(key, g.shots[g.s.you])
	}
	return tables.Summary{Title: r.T("title", g.s.name, g.opp.label(), g.s.r.W, g.s.r.H), Status: st, Over: g.phase == phaseOver,
		Created: g.created, Review: g.phase == phaseOver}
}
