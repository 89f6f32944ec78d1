package battleship

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// script is a player that places a fixed fleet and fires a fixed list of
// targets, then fails; it keeps the turns it was asked.
type script struct {
	fleet    []Ship
	placeErr error
	targets  []string
	turns    []Turn
	ready    chan struct{} // nil: places at once; else waits for it
}

func (s *script) Place(ctx context.Context, _ *Turn) ([]Ship, error) {
	if s.ready != nil {
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.fleet, s.placeErr
}

func (s *script) Shoot(_ context.Context, t *Turn) (string, error) {
	s.turns = append(s.turns, *t)
	if len(s.turns) > len(s.targets) {
		return "", errors.New("out of targets")
	}
	return s.targets[len(s.turns)-1], nil
}

var small = Rules{W: 3, H: 2, Fleet: Fleet{0, 1, 1}} // a 1-ship and a 2-ship

// TestPlay: seat 0 shoots first, shots alternate, each seat is told both
// histories as recorded and as read, and the first to sink wins; a shot
// written with a leading zero is recorded as written and never hits.
func TestPlay(t *testing.T) {
	a := &script{fleet: []Ship{{X: 0, Y: 0, L: 1}, {X: 1, Y: 1, L: 2}}, targets: []string{"01,0", "0,1", "1,1", "2,0"}}
	b := &script{fleet: []Ship{{X: 2, Y: 0, L: 1}, {X: 0, Y: 1, L: 2}}, targets: []string{"0,0", "1,1", "2,1"}}
	var log []string
	o, err := Play(t.Context(), Game{Rules: small, Seats: [2]Seat{{Player: a}, {Player: b}},
		Placed: func(seat int, _ []Ship, _ time.Duration) { log = append(log, fmt.Sprintf("placed %d", seat)) },
		Fired: func(seat int, s Shot, _ time.Duration) {
			log = append(log, fmt.Sprintf("%d %s %q", seat, s.Target, s.Result))
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := `placed 0, placed 1, 0 01,0 "", 1 0,0 "hit and sunk", 0 0,1 "hit", 1 1,1 "hit", 0 1,1 "hit and sunk", 1 2,1 "hit sunk and win"`
	if got := strings.Join(log, ", "); got != want {
		t.Errorf("the game:\n%s\nwant\n%s", got, want)
	}
	if o.Winner != 1 || o.Shots != [2]int{3, 3} || o.Fault != nil {
		t.Fatalf("outcome %+v", o)
	}
	last := b.turns[2]
	if fmt.Sprint(last.Yours) != `[{0,0 hit and sunk} {1,1 hit}]` || fmt.Sprint(last.His) != `[{01,0 } {0,1 hit} {1,1 hit and sunk}]` {
		t.Errorf("b's last turn: yours %v, his %v", last.Yours, last.His)
	}
	if r := last.HisRead; len(r) != 3 || r[0].OK || !r[1].OK || r[2].Result != Sunk {
		t.Errorf("b's last turn as read: %+v", r)
	}
}

// TestPlayFaults: a bad fleet loses before the other seat is asked, a bad
// answer to a turn loses, the cap loses, and the context's end is no one's
// fault.
func TestPlayFaults(t *testing.T) {
	good := func() *script {
		return &script{fleet: []Ship{{X: 0, Y: 0, L: 1}, {X: 1, Y: 1, L: 2}}, targets: []string{"0,0", "0,0", "0,0"}}
	}
	overlap := &script{fleet: []Ship{{X: 0, Y: 0, L: 1}, {X: 0, Y: 0, L: 2}}}
	b := good()
	o, err := Play(t.Context(), Game{Rules: small, Seats: [2]Seat{{Player: overlap}, {Player: b}}})
	if err != nil || o.Winner != 1 || o.Fault == nil || o.Fault.Phase != "init" || !strings.HasPrefix(o.Fault.Invalid(), "init: ship") {
		t.Errorf("an overlapping fleet: %+v %v", o, err)
	}
	offBoard := good()
	offBoard.targets = []string{"3,0"}
	o, _ = Play(t.Context(), Game{Rules: small, Seats: [2]Seat{{Player: offBoard}, {Player: good()}}})
	if o.Winner != 1 || o.Fault.Phase != "play-turn" || o.Fault.Seat != 0 {
		t.Errorf("a shot off the board: %+v", o)
	}
	o, _ = Play(t.Context(), Game{Rules: small, MaxShots: 2, Seats: [2]Seat{{Player: good()}, {Player: good()}}})
	if o.Winner != 1 || o.Fault.Invalid() != "no win after 2 shots" || o.Shots != [2]int{2, 2} {
		t.Errorf("the cap: %+v %v", o, o.Fault)
	}
	ctx, cancel := context.WithCancel(t.Context())
	gate := func(ctx context.Context, seat int) error { cancel(); return ctx.Err() }
	if _, err := Play(ctx, Game{Rules: small, Gate: gate, Seats: [2]Seat{{Player: good()}, {Player: good()}}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled at the gate: %v", err)
	}
}

// TestPlayHidden: a seat without a player hides its fleet and never
// shoots (the target mode).
func TestPlayHidden(t *testing.T) {
	shooter := &script{targets: []string{"0,0", "2,1", "1,1", "2,0"}}
	o, err := Play(t.Context(), Game{Rules: small, Seats: [2]Seat{{Player: shooter, Fleet: []Ship{}}, {Fleet: []Ship{{X: 2, Y: 0, L: 1}, {X: 1, Y: 1, L: 2}}}}})
	if err != nil || o.Winner != 0 || o.Shots != [2]int{4, 0} {
		t.Fatalf("%+v %v", o, err)
	}
}

// TestPlayOn: with PlayOn the loser plays until it sinks the other fleet
// too, and the winner is the one that needed fewer shots.
func TestPlayOn(t *testing.T) {
	a := &script{fleet: []Ship{{X: 0, Y: 0, L: 1}, {X: 1, Y: 1, L: 2}}, targets: []string{"2,0", "0,1", "1,1"}}
	b := &script{fleet: []Ship{{X: 2, Y: 0, L: 1}, {X: 0, Y: 1, L: 2}}, targets: []string{"0,0", "1,1", "2,1"}}
	o, err := Play(t.Context(), Game{Rules: small, PlayOn: true, Seats: [2]Seat{{Player: a}, {Player: b}}})
	if err != nil || o.Winner != 0 || o.Shots != [2]int{3, 3} {
		t.Fatalf("%+v %v", o, err)
	}
}

// TestPlayAtOnce: both seats are asked at once, a seat ready first waits
// for the other; the first bad fleet loses and the other seat's question
// is withdrawn.
func TestPlayAtOnce(t *testing.T) {
	slow := &script{fleet: []Ship{{X: 0, Y: 0, L: 1}, {X: 1, Y: 1, L: 2}}, targets: []string{"2,0", "0,1", "1,1"}, ready: make(chan struct{})}
	fast := &script{fleet: []Ship{{X: 2, Y: 0, L: 1}, {X: 0, Y: 1, L: 2}}, targets: []string{"0,0", "1,1", "2,1"}}
	var order []int
	placed := func(seat int, _ []Ship, _ time.Duration) {
		order = append(order, seat)
		if seat == 1 {
			close(slow.ready)
		}
	}
	o, err := Play(t.Context(), Game{Rules: small, AtOnce: true, Placed: placed, Seats: [2]Seat{{Player: slow}, {Player: fast}}})
	if err != nil || o.Winner != 0 || fmt.Sprint(order) != "[1 0]" {
		t.Fatalf("%+v %v, placed in order %v", o, err, order)
	}
	waiting := &script{ready: make(chan struct{})}
	bad := &script{placeErr: errors.New("no fleet")}
	o, err = Play(t.Context(), Game{Rules: small, AtOnce: true, Seats: [2]Seat{{Player: waiting}, {Player: bad}}})
	if err != nil || o.Winner != 0 || o.Fault.Seat != 1 || o.Fault.Invalid() != "init: no fleet" {
		t.Fatalf("%+v %v", o, err)
	}
}
