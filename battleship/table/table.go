package table

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/remote"
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

// game is one table: the person at seat you, the bot at the other. The
// game itself is played by battleship.Play on the table's goroutine
// (run); the table keeps what the views and the record show, told by the
// game's hooks.
type game struct {
	s       setup
	opp     opponent
	you     *person
	env     tables.Env
	created time.Time
	cancel  context.CancelFunc
	done    chan struct{} // closed when the game's goroutine is over
	// actMu holds one person's action at a time, and a decision until the
	// game has played it: the next action is read on the table it left.
	actMu sync.Mutex

	mu     sync.Mutex
	seq    int
	phase  string
	rng    *rand.Rand           // the person's random placements
	placed []battleship.Ship    // the person's fleet so far
	fleets [2][]battleship.Ship // by seat, once placed
	initMS [2]time.Duration
	shots  [2]int  // each seat's shots fired
	fired  []fired // both seats' shots in the order fired
	// played is closed when the game has played the person's decision in
	// flight (nil: none).
	played chan struct{}
	maps   []*shotMap // by the bot's shot (nil: not kept)
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
	g := &game{s: s, opp: opp, you: newPerson(), env: env, created: now, cancel: cancel, done: make(chan struct{}),
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
	if g.shots[0] == g.shots[1] {
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

// run plays the game: both fleets asked at once (the person places at
// their own pace), then the shots in turn, the bot's after the table's
// pace, until a fleet is sunk, the bot answers badly, or ctx is done.
func (g *game) run(ctx context.Context) {
	defer close(g.done)
	var seats [2]battleship.Seat
	seats[g.s.you].Player, seats[g.bot()].Player = g.you, g.opp
	o, err := battleship.Play(ctx, battleship.Game{Rules: g.s.r, Seats: seats, AtOnce: true,
		Gate: g.gate, Placed: g.placedHook, Fired: g.firedHook})
	if err != nil || o.Fault == nil {
		return // closed, or the last shot ended the game (firedHook)
	}
	why := remote.Reason(o.Fault.Err)
	msg := fmt.Sprintf("%s answered badly (%s): on the arena that loses the game. You win.", g.opp.label(), why)
	if o.Fault.Phase == "init" {
		msg = fmt.Sprintf("%s's fleet is not valid (%s): on the arena that loses the game. You win.", g.opp.label(), why)
	}
	g.mu.Lock()
	rec := g.end(g.s.you, msg, o.Fault.Phase+": "+why)
	g.seq++
	g.mu.Unlock()
	g.changed(rec)
}

// gate paces the bot: a person sees its shot arrive.
func (g *game) gate(ctx context.Context, seat int) error {
	if seat != g.bot() || g.s.pace <= 0 {
		return nil
	}
	t := time.NewTimer(g.s.pace)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// placedHook is told of a fleet placed: the bot's, or the person's once
// they start the game.
func (g *game) placedHook(seat int, ships []battleship.Ship, d time.Duration) {
	g.mu.Lock()
	g.fleets[seat] = ships
	if seat == g.bot() {
		if g.opp.remote() {
			g.initMS[seat] = d
		}
		g.say("%s has placed its fleet.", g.opp.label())
	} else {
		g.phase = phaseWait
		g.say("Your fleet is ready.")
		g.donePerson()
	}
	g.begin()
	g.seq++
	g.mu.Unlock()
	g.changed(nil)
}

// firedHook is told of a shot played; the bot's comes with the map
// behind it.
func (g *game) firedHook(seat int, s battleship.Shot, d time.Duration) {
	var m *battleship.ShotMap
	if seat == g.bot() {
		m = g.opp.explained()
	}
	g.mu.Lock()
	if seat == g.bot() && m != nil {
		g.keepMap(m)
	}
	if seat == g.s.you || !g.opp.remote() {
		d = 0 // no bot server's time
	}
	rec := g.fire(seat, s, d)
	if seat == g.s.you {
		g.donePerson()
	}
	g.seq++
	g.mu.Unlock()
	g.changed(rec)
}

// donePerson tells the person's action in flight that the game has
// played it (the caller holds the lock).
func (g *game) donePerson() {
	if g.played != nil {
		close(g.played)
		g.played = nil
	}
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

// fire keeps seat's shot s (the caller holds the lock) and returns the
// record if it won the game.
func (g *game) fire(seat int, s battleship.Shot, d time.Duration) []byte {
	x, y := cellOf(s.Target)
	g.shots[seat]++
	g.fired = append(g.fired, fired{seat: seat, target: s.Target, result: s.Result, x: x, y: y, ms: d})
	what := map[string]string{battleship.ResultMiss: "miss", battleship.ResultHit: "hit", battleship.ResultSunk: "hit and sunk", battleship.ResultWin: "hit and sunk"}[s.Result]
	if s.Target != battleship.FormatTarget(x, y) {
		what += fmt.Sprintf(" (the arena compares %q with the ships' cells as text: never a hit)", s.Target)
	}
	if seat == g.s.you {
		g.say("You fire at %d,%d: %s.", x, y, what)
	} else {
		g.say("%s fires at %d,%d: %s.", g.opp.label(), x, y, what)
	}
	if s.Result != battleship.ResultWin {
		return nil
	}
	if seat == g.s.you {
		return g.end(seat, fmt.Sprintf("You sank the last ship with your %s shot. You win.", ordinal(g.shots[seat])), "")
	}
	return g.end(seat, fmt.Sprintf("%s sank your last ship with its %s shot. You lose.", g.opp.label(), ordinal(g.shots[seat])), "")
}

// keepMap keeps the map behind the bot's shot (the caller holds the
// lock), its cells while the budget allows.
func (g *game) keepMap(m *battleship.ShotMap) {
	sm := &shotMap{m: *m, p: m.P[m.Y*g.s.r.W+m.X]}
	sm.m.P = nil
	for _, p := range m.P {
		sm.top = max(sm.top, p)
	}
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

// Close stops the game and waits for it; an unfinished game's record is
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
