package table

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/remote"
	"github.com/botarena/gamebot/internal/i18n"
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
	// ended says what ended the game ("gamebot sank your last ship.")
	// for a reader; nil until the game is over.
	ended func(reader) string
	// invalid is the bot's answer that lost it the game, as the arena
	// would judge it (the record's words, English).
	invalid string
	log     []logEntry
	logN    int
	saved   bool
	saveErr error
	review  map[i18n.Lang][]byte // the review page in each language asked
}

type fired struct {
	seat           int
	target, result string // as the arena records them
	x, y           int
	ms             time.Duration // the call, for a bot server
}

// logLine is a line of the log as a view carries it, written for its
// reader.
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
	g.say(func(rd reader) string {
		board := rd.T("log.board", r.W, r.H, r.Fleet[1], r.Fleet[2], r.Fleet[3], r.Fleet[4], r.Fleet[5], r.Fleet[6])
		return board + " " + g.youOr(rd, "log.placeYours", "log.places")
	})
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

// changed publishes a new version; rec, when the game just ended, is
// written to the records.
func (g *game) changed(rec []byte) {
	g.env.Notify()
	if rec != nil {
		g.save(rec)
	}
}

// end closes the game (the caller holds the lock) and returns its record.
func (g *game) end(winner int, cause func(reader) string, invalid string) []byte {
	g.phase, g.winner, g.ended, g.invalid = phaseOver, winner, cause, invalid
	g.say(g.outcome)
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
	f := o.Fault
	key := "result.badAnswer"
	if f.Phase == "init" {
		key = "result.badFleet"
	}
	cause := func(r reader) string { return r.T(key, g.opp.label(), r.Reason(f.Err)) }
	g.mu.Lock()
	rec := g.end(g.s.you, cause, f.Phase+": "+remote.Reason(f.Err))
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
		g.sayT("log.botPlaced", g.opp.label())
	} else {
		g.phase = phaseWait
		g.say(func(r reader) string { return g.youOr(r, "log.youReady", "log.ready") })
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
		g.say(func(r reader) string { return g.youOr(r, "log.youFirst", "log.first") })
	} else {
		g.sayT("log.first", g.opp.label())
	}
}

// fire keeps seat's shot s (the caller holds the lock) and returns the
// record if it won the game.
func (g *game) fire(seat int, s battleship.Shot, d time.Duration) []byte {
	x, y := cellOf(s.Target)
	g.shots[seat]++
	g.fired = append(g.fired, fired{seat: seat, target: s.Target, result: s.Result, x: x, y: y, ms: d})
	// A bot server's shot the arena reads but compares as text ("04,2")
	// is written as it was sent: digits and a comma, a valid shot.
	odd := s.Target != battleship.FormatTarget(x, y)
	bot := g.opp.label()
	g.say(func(r reader) string {
		what := r.Result(s.Result)
		if odd {
			what += " " + r.T("log.asText", s.Target)
		}
		if seat == g.s.you {
			return g.youOr(r, "log.youFire", "log.fires", x, y, what)
		}
		return r.T("log.fires", bot, x, y, what)
	})
	if s.Result != battleship.ResultWin {
		return nil
	}
	if seat == g.s.you {
		return g.end(seat, func(r reader) string { return g.youOr(r, "result.youSank", "result.sank", bot) }, "")
	}
	return g.end(seat, func(r reader) string {
		if r.watching {
			return r.T("result.sank", bot, g.s.name)
		}
		return r.T("result.sankYours", bot)
	}, "")
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
