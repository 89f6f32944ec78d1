package table

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

// Phases of a table.
const (
	phasePlace = "place" // the person places a fleet
	phaseWait  = "wait"  // the person is ready, the bot's fleet is not
	phasePlay  = "play"
	phaseOver  = "over"
)

// Bounds of what a table keeps.
const (
	// mapBudget bounds the bytes of the maps kept for the review (one
	// byte a cell a shot: about 40,000 shots on 10x10, 400 on 100x100).
	mapBudget = 4 << 20
	// logKeep is the log lines a view carries (the page lists as many).
	logKeep = 60
	// validMax bounds the options a refusal lists.
	validMax = 100
)

// game is one table: the person at seat you, the bot at the other.
type game struct {
	s       setup
	opp     opponent
	env     tables.Env
	created time.Time
	cancel  context.CancelFunc
	wake    chan struct{} // the bot's goroutine looks at the table again
	done    chan struct{} // closed when that goroutine is over

	mu     sync.Mutex
	seq    int
	phase  string
	rng    *rand.Rand           // the person's random placements
	placed []battleship.Ship    // the person's fleet so far
	fleets [2][]battleship.Ship // by seat, once placed
	arenas [2]*battleship.Arena // seat i's fleet, shot at by the other seat
	initMS [2]time.Duration
	shots  [2][]wire.Strike       // each seat's shots as the arena records them
	parsed [2][]battleship.Strike // the same, as the engine reads them
	fired  []fired                // both seats' shots in the order fired
	maps   []*shotMap             // by the bot's shot (nil: not kept)
	mapsB  int
	shown  int // the bot's shot whose map the review shows
	winner int // -1 until the game is over
	why    string
	// invalid is the bot's answer that lost it the game, as the arena
	// would judge it.
	invalid string
	log     []logLine
	logN    int
	saved   bool
	saveErr error
	review  []byte
}

type fired struct {
	seat           int
	target, result string // as the arena records them
	x, y           int
	ms             time.Duration // the call, for a bot server
}

type logLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// shotMap is the map behind one of the bot's shots, a byte a cell scaled
// to the map's largest value.
type shotMap struct {
	m   battleship.ShotMap // without P
	q   []byte             // nil: not kept
	top float64
	p   float64 // at the cell shot
}

func newGame(s setup, opp opponent, env tables.Env, now time.Time, cancel context.CancelFunc) *game {
	g := &game{s: s, opp: opp, env: env, created: now, cancel: cancel, wake: make(chan struct{}, 1), done: make(chan struct{}),
		phase: phasePlace, rng: rand.New(rand.NewPCG(s.seed, 0x9a17)), winner: -1}
	if env.Notify == nil {
		g.env.Notify = func() {}
	}
	r := s.r
	g.say("%dx%d board, ships by length 1..6: %d, %d, %d, %d, %d, %d. Place your fleet.", r.W, r.H, r.Fleet[1], r.Fleet[2], r.Fleet[3], r.Fleet[4], r.Fleet[5], r.Fleet[6])
	return g
}

func (g *game) bot() int { return 1 - g.s.you }

// turn is the seat to shoot: seat 0 when both have shot as often.
func (g *game) turn() int {
	if len(g.shots[0]) == len(g.shots[1]) {
		return 0
	}
	return 1
}

func (g *game) say(format string, args ...any) {
	g.logN++
	g.log = append(g.log, logLine{N: g.logN, Text: fmt.Sprintf(format, args...)})
	if len(g.log) > 2*logKeep {
		g.log = slices.Clone(g.log[len(g.log)-logKeep:])
	}
}

// changed publishes a new version; rec, when the game just ended, is
// written to the records.
func (g *game) changed(rec []byte) {
	g.env.Notify()
	select {
	case g.wake <- struct{}{}:
	default:
	}
	if rec != nil {
		g.save(rec)
	}
}

// end closes the game (the caller holds the lock) and returns its record.
func (g *game) end(winner int, why, invalid string) []byte {
	g.phase, g.winner, g.why, g.invalid = phaseOver, winner, why, invalid
	g.say("%s", why)
	return g.recordBytes("")
}

// run is the bot's side: its fleet at once, then a shot on each of its
// turns, until the game is over or ctx is done.
func (g *game) run(ctx context.Context) {
	defer close(g.done)
	bot := g.bot()
	t0 := time.Now()
	var ships []battleship.Ship
	var err error
	g.decide(ctx, func() { t0 = time.Now(); ships, err = g.opp.fleet(ctx, question{s: g.s, seat: bot}) })
	d := time.Since(t0)
	if ctx.Err() != nil {
		return
	}
	g.mu.Lock()
	var rec []byte
	if err != nil {
		why := referee.Reason(err)
		rec = g.end(g.s.you, fmt.Sprintf("%s's fleet is not valid (%s): on the arena that loses the game. You win.", g.opp.label(), why), "init: "+why)
	} else {
		g.fleets[bot], g.arenas[bot] = ships, battleship.NewArena(g.s.r, ships)
		if g.opp.remote() {
			g.initMS[bot] = d
		}
		g.say("%s has placed its fleet.", g.opp.label())
		g.begin()
	}
	g.seq++
	g.mu.Unlock()
	g.changed(rec)
	for {
		g.mu.Lock()
		phase := g.phase
		mine := phase == phasePlay && g.turn() == bot
		q := question{s: g.s, seat: bot, at: g.arenas[g.s.you]}
		if mine {
			n, m := len(g.shots[bot]), len(g.shots[g.s.you])
			q.yours, q.his = g.shots[bot][:n:n], g.shots[g.s.you][:m:m]
			q.yoursP, q.hisP = g.parsed[bot][:n:n], g.parsed[g.s.you][:m:m]
		}
		g.mu.Unlock()
		if phase == phaseOver {
			return
		}
		if !mine {
			select {
			case <-ctx.Done():
				return
			case <-g.wake:
			}
			continue
		}
		if g.s.pace > 0 {
			t := time.NewTimer(g.s.pace)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		t0 := time.Now()
		var target string
		var err error
		g.decide(ctx, func() { t0 = time.Now(); target, err = g.opp.shoot(ctx, q) })
		d := time.Since(t0)
		if ctx.Err() != nil {
			return
		}
		g.mu.Lock()
		if err != nil {
			why := referee.Reason(err)
			rec = g.end(g.s.you, fmt.Sprintf("%s answered badly (%s): on the arena that loses the game. You win.", g.opp.label(), why), "play-turn: "+why)
		} else {
			if !g.opp.remote() {
				d = 0
			}
			rec = g.fire(bot, target, d)
		}
		g.seq++
		g.mu.Unlock()
		g.changed(rec)
		if err == nil {
			g.keepMap(ctx, q)
		}
	}
}

// decide runs a decision of our bot in one of the hub's thinking slots
// (its searches are CPU-bound; a bot server's run elsewhere, at once).
// When ctx ends while it waits, decide returns without running f: the
// caller sees ctx's error.
func (g *game) decide(ctx context.Context, f func()) {
	if g.opp.remote() {
		f()
		return
	}
	_ = g.env.Decide(ctx, f)
}

// begin starts the shooting once both fleets are placed (the caller holds
// the lock).
func (g *game) begin() {
	if g.phase != phaseWait || g.fleets[g.bot()] == nil {
		return
	}
	g.phase = phasePlay
	if g.turn() == g.s.you {
		g.say("Both fleets are placed: you shoot first.")
	} else {
		g.say("Both fleets are placed: %s shoots first.", g.opp.label())
	}
}

// fire applies seat's valid shot at target (the caller holds the lock)
// and returns the record if it won the game.
func (g *game) fire(seat int, target string, d time.Duration) []byte {
	res := g.arenas[1-seat].Shoot(target)
	x, y := cellOf(target)
	g.shots[seat] = append(g.shots[seat], wire.Strike{Target: target, Result: res})
	px, py, ok := battleship.ParseTarget(target)
	g.parsed[seat] = append(g.parsed[seat], battleship.Strike{X: px, Y: py, OK: ok, Result: battleship.ParseResult(res)})
	g.fired = append(g.fired, fired{seat: seat, target: target, result: res, x: x, y: y, ms: d})
	what := map[string]string{battleship.ResultMiss: "miss", battleship.ResultHit: "hit", battleship.ResultSunk: "hit and sunk", battleship.ResultWin: "hit and sunk"}[res]
	if target != battleship.FormatTarget(x, y) {
		what += fmt.Sprintf(" (the arena compares %q with the ships' cells as text: never a hit)", target)
	}
	if seat == g.s.you {
		g.say("You fire at %d,%d: %s.", x, y, what)
	} else {
		g.say("%s fires at %d,%d: %s.", g.opp.label(), x, y, what)
	}
	if res != battleship.ResultWin {
		return nil
	}
	if seat == g.s.you {
		return g.end(seat, fmt.Sprintf("You sank the last ship with your %s shot. You win.", ordinal(len(g.shots[seat]))), "")
	}
	return g.end(seat, fmt.Sprintf("%s sank your last ship with its %s shot. You lose.", g.opp.label(), ordinal(len(g.shots[seat]))), "")
}

// keepMap keeps the map behind the bot's latest shot, while the budget
// allows. It runs on the bot's goroutine after the shot is shown, before
// the bot plays again: nothing has changed the bot since.
func (g *game) keepMap(ctx context.Context, q question) {
	var m *battleship.ShotMap
	g.decide(ctx, func() { m = g.opp.explain(q) })
	if m == nil {
		return
	}
	sm := &shotMap{m: *m, p: m.P[m.Y*q.s.r.W+m.X]}
	sm.m.P = nil
	for _, p := range m.P {
		sm.top = max(sm.top, p)
	}
	g.mu.Lock()
	if g.mapsB+len(m.P) <= mapBudget {
		sm.q = make([]byte, len(m.P))
		for c, p := range m.P {
			if sm.top > 0 {
				sm.q[c] = byte(math.Round(255 * p / sm.top))
			}
		}
		g.mapsB += len(sm.q)
	}
	g.maps = append(g.maps, sm)
	// The last shot's map comes after the view that ended the game.
	over := g.phase == phaseOver
	if over {
		g.seq++
	}
	g.mu.Unlock()
	if over {
		g.env.Notify()
	}
}

// ordinal is 1st, 2nd, 3rd, 4th…
func ordinal(n int) string {
	suf := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return strconv.Itoa(n) + suf
}

// cellOf is a valid shot's cell (the arena's shots may have leading
// zeros or a final newline).
func cellOf(target string) (int, int) {
	xs, ys, _ := strings.Cut(strings.TrimSuffix(target, "\n"), ",")
	x, _ := strconv.Atoi(xs)
	y, _ := strconv.Atoi(ys)
	return x, y
}

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
// decides nothing.
func (g *game) Act(v tables.Viewer, seq int, body []byte) error {
	var a action
	if err := problem.DecodeStrict(body, &a); err != nil {
		return err
	}
	if v.Seat.Watching() {
		return tables.NotYours("a watcher decides nothing: the person at the table does")
	}
	g.mu.Lock()
	if seq != g.seq {
		cur := g.seq
		g.mu.Unlock()
		return tables.ErrStale(seq, cur)
	}
	rec, err := g.apply(a)
	if err != nil {
		g.mu.Unlock()
		return err
	}
	g.seq++
	g.mu.Unlock()
	g.changed(rec)
	return nil
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
// nothing. It returns the record when the action ended the game.
func (g *game) apply(a action) ([]byte, error) {
	if !slices.Contains(g.actionsOf(), a.Type) {
		why := map[string]string{phasePlace: "you are placing your fleet", phaseWait: "the bot is placing its fleet", phaseOver: "the game is over"}[g.phase]
		if g.phase == phasePlay {
			why = "it is " + g.opp.label() + "'s turn"
		}
		return nil, tables.Illegal(g.actionsOf(), "%q is not possible now: %s", a.Type, why)
	}
	r := g.s.r
	switch a.Type {
	case "place":
		return nil, g.place(a)
	case "remove":
		if a.X == nil || a.Y == nil {
			return nil, problem.Malformedf(`remove: {"type": "remove", "x": column, "y": row}`)
		}
		for i, s := range g.placed {
			if covers(s, *a.X, *a.Y) {
				g.placed = slices.Delete(g.placed, i, i+1)
				g.say("Ship of %d taken off %d,%d.", s.L, s.X, s.Y)
				return nil, nil
			}
		}
		return nil, tables.Illegal(boats(g.placed), "no ship of yours covers %d,%d", *a.X, *a.Y)
	case "clear":
		g.placed = nil
		g.say("Fleet cleared.")
	case "random":
		g.placed = battleship.RandomFleet(r, g.rng)
		g.say("Fleet placed at random (every placement equally likely).")
	case "bot":
		boats, err := battleship.NewBot(battleship.Options{}).Init(g.opp.label(), r, g.rng.Uint64())
		if err != nil {
			return nil, tables.Illegal(g.actionsOf(), "the bot could not place this fleet: %v", err)
		}
		raw, _ := json.Marshal(boats)
		ships, err := wire.ArenaBoats(r, raw)
		if err != nil {
			return nil, err
		}
		g.placed = ships
		g.say("Fleet placed as our bot places its own.")
	case "start":
		if left := g.left(); len(left) > 0 {
			return nil, tables.Illegal([]string{"place", "random", "bot"}, "your fleet is not complete: ships of length %v are still to place", left)
		}
		you := g.s.you
		g.fleets[you], g.arenas[you] = slices.Clone(g.placed), battleship.NewArena(r, g.placed)
		g.phase = phaseWait
		g.say("Your fleet is ready.")
		g.begin()
	case "shoot":
		return g.shoot(a)
	case "explain":
		if a.Shot == nil || *a.Shot < 0 || *a.Shot >= len(g.maps) {
			return nil, tables.Illegal([]string{fmt.Sprintf("shot 0..%d", len(g.maps)-1)}, "no map for that shot")
		}
		g.shown = *a.Shot
	}
	return nil, nil
}

// place puts a ship of the person's (the caller holds the lock).
func (g *game) place(a action) error {
	r := g.s.r
	left := g.left()
	if a.X == nil || a.Y == nil {
		return problem.Malformedf(`place: {"type": "place", "x": column, "y": row, "len": length, "vertical": false}`)
	}
	if !slices.Contains(left, a.Len) {
		return tables.Illegal(left, "no ship of length %d is left to place", a.Len)
	}
	s := battleship.Ship{X: *a.X, Y: *a.Y, L: a.Len, Vertical: a.Vertical && a.Len > 1}
	if err := battleship.CheckPlacement(battleship.Rules{W: r.W, H: r.H, Fleet: fleetOf(append(slices.Clone(g.placed), s))}, append(slices.Clone(g.placed), s)); err != nil {
		return tables.Illegal(g.placements(a.Len), "ship %s: %v", s, err)
	}
	g.placed = append(g.placed, s)
	dir := "across"
	if s.Vertical {
		dir = "down"
	}
	g.say("Ship of %d placed at %d,%d %s.", s.L, s.X, s.Y, dir)
	return nil
}

// shoot fires the person's shot (the caller holds the lock).
func (g *game) shoot(a action) ([]byte, error) {
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
			return nil, tables.Illegal(g.unshot(), "%q is not a cell: type x,y (column, row, from 0)", a.At)
		}
	default:
		return nil, problem.Malformedf(`shoot: {"type": "shoot", "x": column, "y": row} or {"type": "shoot", "at": "x,y"}`)
	}
	if x < 0 || y < 0 || x >= r.W || y >= r.H {
		return nil, tables.Illegal(g.unshot(), "%d,%d is off the %dx%d board (x 0..%d, y 0..%d)", x, y, r.W, r.H, r.W-1, r.H-1)
	}
	t := battleship.FormatTarget(x, y)
	for _, s := range g.shots[g.s.you] {
		if s.Target == t {
			// The arena would take it (a wasted turn); a person's
			// misclick is refused instead.
			return nil, tables.Illegal(g.unshot(), "you already fired at %s", t)
		}
	}
	return g.fire(g.s.you, t, 0), nil
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
	for _, s := range g.shots[g.s.you] {
		shot[s.Target] = true
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

// Summary is the table's line in the lobby.
func (g *game) Summary(*i18n.Printer) tables.Summary {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := map[string]string{phasePlace: "placing your fleet", phaseWait: "waiting for the bot's fleet"}[g.phase]
	switch g.phase {
	case phasePlay:
		st = fmt.Sprintf("%d shots each, ", len(g.shots[g.s.you]))
		if g.turn() == g.s.you {
			st += "your turn"
		} else {
			st += "the bot's turn"
		}
	case phaseOver:
		st = "over: you lost"
		if g.winner == g.s.you {
			st = "over: you won"
		}
	}
	return tables.Summary{Title: fmt.Sprintf("%s vs %s, %dx%d", g.s.name, g.opp.label(), g.s.r.W, g.s.r.H), Status: st, Over: g.phase == phaseOver,
		Created: g.created, Review: g.phase == phaseOver}
}

// Close stops the bot and waits for it; an unfinished game's record is
// written as it stands.
func (g *game) Close() {
	g.cancel()
	<-g.done
	g.mu.Lock()
	var rec []byte
	if g.phase != phaseOver && !g.saved {
		rec = g.recordBytes("the table was closed before the end of the game")
	}
	g.mu.Unlock()
	if rec != nil {
		g.save(rec)
	}
}
