package table

import (
	"context"
	"fmt"
	"time"

	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// person is a side a person plays, as the leg runner sees it: a
// wire.Engine whose Move waits for the move the page of its seat sends
// (Act). A pass is answered at once; the budget, when there is one, is
// the person's clock.
type person struct {
	t    *Table
	l    *leg
	seat table.Seat
}

// ask is the person's move the runner waits for.
type ask struct {
	seat table.Seat
	move chan int // the square Act sends (buffered: Act never waits on it)
}

// Move implements wire.Engine.
func (p *person) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	if len(req.LegalMoves) == 0 {
		return wire.Answer{Move: othello.Pass}, nil
	}
	a := &ask{seat: p.seat, move: make(chan int, 1)}
	p.t.update(func() { p.l.asked = a })
	defer func() {
		p.t.mu.Lock()
		if p.l.asked == a {
			p.l.asked = nil
		}
		p.t.mu.Unlock()
	}()
	var timeout <-chan time.Time
	if budget > 0 {
		tm := time.NewTimer(budget)
		defer tm.Stop()
		timeout = tm.C
	}
	select {
	case sq := <-a.move:
		return wire.Answer{Move: sq}, nil
	case <-timeout:
		return wire.Answer{}, fmt.Errorf("%w: no move before the clock ran out", wire.ErrEngine)
	case <-ctx.Done():
		return wire.Answer{}, ctx.Err()
	}
}

// Close implements wire.Engine: there is nothing to release.
func (p *person) Close() error { return nil }
