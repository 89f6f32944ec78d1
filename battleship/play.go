package battleship

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The one game loop: a game between two players as the arena plays it
// (docs/battleship.md §3–4). battleref's games, gamebot play's tables and
// the person at a table are all played by Play; what differs between them
// is who the players are and what the hooks do.

// Player is one seat of a game: asked for its fleet once, then for a shot
// on each of its turns. An error is a bad answer, which loses the game at
// once as it does on the arena (the context's own error aside).
type Player interface {
	Place(ctx context.Context, t *Turn) ([]Ship, error)
	// Shoot returns the target as the arena records it: a valid shot
	// (ValidShot), possibly written with a leading zero.
	Shoot(ctx context.Context, t *Turn) (string, error)
}

// Turn is what the arena tells a seat when it asks it: the rules, its
// seat, and on a play-turn both seats' shots so far, as the arena
// records them and as the engine reads them.
type Turn struct {
	Rules Rules
	Seat  int
	// Yours and His are this seat's shots and the other seat's.
	Yours, His []Shot
	// YoursRead and HisRead are the same shots as the engine reads them.
	YoursRead, HisRead []Strike
}

// Shot is one shot as the arena records it: the target exactly as its
// shooter wrote it, and the arena's answer ("", "hit", "hit and sunk").
type Shot struct {
	Target string `json:"target"`
	Result string `json:"result"`
}

// Seat is one side of a game.
type Seat struct {
	// Player shoots, and places a fleet unless Fleet is set; nil: a seat
	// that hides Fleet and never shoots (the target mode's hidden fleet).
	Player Player
	Fleet  []Ship
}

// Game is one game's settings and hooks.
type Game struct {
	Rules Rules
	Seats [2]Seat
	// MaxShots: a seat that has fired this many shots without winning
	// loses (0: no limit).
	MaxShots int
	// PlayOn plays on after the first fleet is sunk until the other is
	// sunk too; the winner is still the first to sink (seat 0 on equal
	// shots). A diagnostic: the arena stops at the first.
	PlayOn bool
	// AtOnce asks both seats for their fleets at once (a person places at
	// their own pace while a bot answers) instead of seat 0 then seat 1.
	AtOnce bool
	// Gate is waited for before each shot is asked (nil: none): a table's
	// pace.
	Gate func(ctx context.Context, seat int) error
	// Placed is told of each fleet a player placed, and Fired of each
	// shot with its result, as soon as they are played; d is the time the
	// player took to answer.
	Placed func(seat int, ships []Ship, d time.Duration)
	Fired  func(seat int, s Shot, d time.Duration)
}

// Outcome is how a game ended.
type Outcome struct {
	Winner int
	// Shots are the shots each seat fired, and Read the shots themselves
	// as the engine reads them (what a player that learns learns from).
	Shots [2]int
	Read  [2][]Strike
	// Fault is why the loser lost at once: a bad answer or the shot cap
	// (nil when a fleet was sunk).
	Fault *Fault
}

// Fault is a loser's bad answer, or its running out of shots.
type Fault struct {
	Seat int
	// Phase is "init" or "play-turn" for a bad answer, "" for the cap.
	Phase string
	Err   error
	// D is the time the player took to give the bad answer.
	D time.Duration
}

// Invalid is the fault in the referee's words: "init: …",
// "play-turn: …" or "no win after N shots".
func (f *Fault) Invalid() string {
	if f.Phase == "" {
		return f.Err.Error()
	}
	return f.Phase + ": " + f.Err.Error()
}

// Play plays a game to its end. It returns ctx's error, and no outcome,
// when ctx ends first.
func Play(ctx context.Context, g Game) (Outcome, error) {
	p := &play{g: g}
	for i, s := range g.Seats {
		if s.Player == nil || s.Fleet != nil {
			p.arenas[i] = NewArena(g.Rules, s.Fleet)
		}
	}
	place := p.placeInTurn
	if g.AtOnce {
		place = p.placeAtOnce
	}
	if f, err := place(ctx); err != nil || f != nil {
		return p.outcome(f), err
	}
	return p.shoot(ctx)
}

// play is a game in progress.
type play struct {
	g      Game
	arenas [2]*Arena // seat i's fleet, shot at by the other seat
	shots  [2][]Shot
	read   [2][]Strike
	sunk   [2]bool // PlayOn: the seat has sunk the other's fleet
}

func (p *play) turn(seat int) *Turn {
	mine, his := p.shots[seat], p.shots[1-seat]
	mr, hr := p.read[seat], p.read[1-seat]
	// Capped: the loop's appends never reach a slice a player holds.
	return &Turn{Rules: p.g.Rules, Seat: seat, Yours: mine[:len(mine):len(mine)], His: his[:len(his):len(his)],
		YoursRead: mr[:len(mr):len(mr)], HisRead: hr[:len(hr):len(hr)]}
}

func (p *play) outcome(f *Fault) Outcome {
	o := Outcome{Shots: [2]int{len(p.shots[0]), len(p.shots[1])}, Read: p.read, Fault: f}
	if f != nil {
		o.Winner = 1 - f.Seat
	}
	return o
}

// placed checks seat's fleet as the arena does and hides it; a fleet the
// arena would refuse is the seat's fault.
func (p *play) placed(seat int, ships []Ship, err error, d time.Duration) *Fault {
	if err == nil {
		err = CheckPlacement(p.g.Rules, ships)
	}
	if err != nil {
		return &Fault{Seat: seat, Phase: "init", Err: err, D: d}
	}
	p.arenas[seat] = NewArena(p.g.Rules, ships)
	if p.g.Placed != nil {
		p.g.Placed(seat, ships, d)
	}
	return nil
}

// placeInTurn asks seat 0, then seat 1: as on the arena, a bad fleet
// loses before the other seat is asked.
func (p *play) placeInTurn(ctx context.Context) (*Fault, error) {
	for i, s := range p.g.Seats {
		if p.arenas[i] != nil {
			continue
		}
		t0 := time.Now()
		ships, err := s.Player.Place(ctx, p.turn(i))
		d := time.Since(t0)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if f := p.placed(i, ships, err, d); f != nil {
			return f, nil
		}
	}
	return nil, nil
}

// placeAtOnce asks both seats at once and hides each fleet as it comes;
// the first bad fleet loses, and the other seat is then no longer asked.
func (p *play) placeAtOnce(ctx context.Context) (*Fault, error) {
	type answer struct {
		seat  int
		ships []Ship
		err   error
		d     time.Duration
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan answer, 2)
	asked := 0
	for i, s := range p.g.Seats {
		if p.arenas[i] != nil {
			continue
		}
		asked++
		t := p.turn(i)
		go func() {
			t0 := time.Now()
			ships, err := s.Player.Place(ctx, t)
			answers <- answer{i, ships, err, time.Since(t0)}
		}()
	}
	var fault *Fault
	for range asked {
		a := <-answers
		if fault != nil || ctx.Err() != nil {
			continue // drained: no player is left asking
		}
		if fault = p.placed(a.seat, a.ships, a.err, a.d); fault != nil {
			cancel()
		}
	}
	if fault == nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return fault, nil
}

// shoot plays the turns, seat 0 first, until a fleet is sunk (both with
// PlayOn) or a seat answers badly.
func (p *play) shoot(ctx context.Context) (Outcome, error) {
	for turn := 0; ; turn++ {
		i := turn % 2
		if p.g.Seats[i].Player == nil || p.sunk[i] {
			continue
		}
		if p.g.MaxShots > 0 && len(p.shots[i]) >= p.g.MaxShots {
			return p.outcome(&Fault{Seat: i, Err: fmt.Errorf("no win after %d shots", p.g.MaxShots)}), nil
		}
		if p.g.Gate != nil {
			if err := p.g.Gate(ctx, i); err != nil {
				return Outcome{}, err
			}
		}
		t0 := time.Now()
		target, err := p.g.Seats[i].Player.Shoot(ctx, p.turn(i))
		d := time.Since(t0)
		if ctx.Err() != nil {
			return Outcome{}, ctx.Err()
		}
		if _, ok := ValidShot(p.g.Rules, target); err == nil && !ok {
			err = errInvalidTarget
		}
		if err != nil {
			return p.outcome(&Fault{Seat: i, Phase: "play-turn", Err: err, D: d}), nil
		}
		if p.fire(i, target, d) {
			return p.won(i), nil
		}
	}
}

var errInvalidTarget = errors.New("the player's target is not a shot the arena takes")

// fire plays seat's shot at target and reports whether the game is over.
func (p *play) fire(seat int, target string, d time.Duration) bool {
	res := p.arenas[1-seat].Shoot(target)
	x, y, ok := ParseTarget(target)
	p.shots[seat] = append(p.shots[seat], Shot{Target: target, Result: res})
	p.read[seat] = append(p.read[seat], Strike{X: x, Y: y, OK: ok, Result: ParseResult(res)})
	if p.g.Fired != nil {
		p.g.Fired(seat, Shot{Target: target, Result: res}, d)
	}
	if res != ResultWin {
		return false
	}
	p.sunk[seat] = true
	return !p.g.PlayOn || p.sunk[1-seat]
}

// won is the outcome once play is over, seat having sunk last: without
// PlayOn seat won; with it, the seat that needed fewer shots (seat 0 on
// equal shots, as it shot first).
func (p *play) won(seat int) Outcome {
	o := p.outcome(nil)
	o.Winner = seat
	if p.g.PlayOn {
		o.Winner = 0
		if o.Shots[1] < o.Shots[0] {
			o.Winner = 1
		}
	}
	return o
}
