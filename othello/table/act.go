package table

import (
	"slices"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
)

// Action is what the page sends: a move, or (the creator of a watched
// match) a control.
type Action struct {
	Move    string `json:"move"`
	Control string `json:"control"` // pause, resume, step, speed
	Ms      *int   `json:"ms"`
}

// MoveAction is a person's action: a square ("d3").
type MoveAction struct {
	Move string `json:"move"`
}

// Act implements table.Table: a person's move, when the leg waits for
// it, or the controls of the creator of a watched match. A move returns
// once the leg has played it.
func (t *Table) Act(v table.Viewer, seq int, raw []byte) error {
	var a Action
	if err := problem.DecodeStrict(raw, &a); err != nil {
		return err
	}
	r := readerOf(v)
	if a.Control != "" {
		if t.s.watch && v.Seat != table.Host {
			return table.NotYours("%s", r.T("err.controls"))
		}
		return t.control(a, r)
	}
	if v.Seat.Watching() {
		return table.NotYours("%s", r.T("err.watcher"))
	}
	t.mu.Lock()
	if seq != t.seq {
		defer t.mu.Unlock()
		return problem.New(problem.Stale, "%s", r.T("err.stale", seq, t.seq))
	}
	l := t.askedOf(v.Seat)
	if l == nil {
		t.mu.Unlock()
		return table.Illegal([]MoveAction{}, "%s", r.T("err.notYourMove"))
	}
	size := t.s.mode.Size()
	legal := l.st.LegalMoves()
	sq, err := othello.ParseSquare(a.Move, size)
	if err != nil || !slices.Contains(legal, sq) {
		t.mu.Unlock()
		return table.Illegal(squareNames(legal, size), "%s", r.T("err.notLegal", a.Move))
	}
	l.asked.move <- sq
	l.asked = nil
	moved, n := l.moved, len(l.rec.Moves)
	t.mu.Unlock()
	select {
	case <-moved:
	case <-t.ctx.Done():
		return problem.New(problem.Unavailable, "%s", r.T("err.closed"))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(l.rec.Moves) == n {
		return table.Illegal([]string{}, "%s", r.T("err.clock"))
	}
	return nil
}

// askedOf is the leg waiting for seat's move, or nil. Called with t.mu
// held.
func (t *Table) askedOf(seat table.Seat) *leg {
	for _, l := range t.legs {
		if l.asked != nil && l.asked.seat == seat {
			return l
		}
	}
	return nil
}

func squareNames(sqs []int, size int) []string {
	out := make([]string, len(sqs))
	for i, sq := range sqs {
		out[i] = othello.SquareName(sq, size)
	}
	return out
}

func (t *Table) control(a Action, r reader) error {
	if !t.s.watch {
		return table.Illegal([]string{}, "%s", r.T("err.noControls", a.Control))
	}
	t.mu.Lock()
	err := t.controlLocked(a, r)
	if err == nil {
		t.seq++
	}
	t.mu.Unlock()
	if err == nil {
		t.env.Notify()
	}
	return err
}

// controlLocked applies a watch control; a refusal is written for r.
// Called with t.mu held.
func (t *Table) controlLocked(a Action, r reader) error {
	switch a.Control {
	case "pause":
		t.changeControls(func() { t.paused = true })
		t.sayLocked(func(r reader) string { return r.T("log.paused") })
	case "resume":
		t.changeControls(func() { t.paused, t.steps = false, 0 })
		t.sayLocked(func(r reader) string { return r.T("log.resumed") })
	case "step":
		if !t.paused {
			return table.Illegal([]string{"pause"}, "%s", r.T("err.pauseFirst"))
		}
		t.changeControls(func() { t.steps++ })
	case "speed":
		if a.Ms == nil || *a.Ms < 0 || *a.Ms > maxPaceMs {
			return problem.Impossiblef("%s", r.T("err.speed", maxPaceMs))
		}
		t.changeControls(func() { t.pace = time.Duration(*a.Ms) * time.Millisecond })
	default:
		return table.Illegal([]string{"pause", "resume", "step", "speed"}, "%s", r.T("err.control", a.Control))
	}
	return nil
}

// Valid implements table.Scripted: the moves seat may play now.
func (t *Table) Valid(seat table.Seat) []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []any{}
	if l := t.askedOf(seat); l != nil {
		for _, sq := range squareNames(l.st.LegalMoves(), t.s.mode.Size()) {
			out = append(out, MoveAction{Move: sq})
		}
	}
	return out
}
