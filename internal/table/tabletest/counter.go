package tabletest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/table"
)

// Counter is a game for the hub's tests and the load client's: each
// person adds 1, 2 or 3 to a total in turn; the table's secret is never
// in a view. Its setup is {"start": N, "people": K, "fail": "…"}: K seats
// for persons (default 1: the creator's, seat 0; the others are kept for
// guests), and fail makes New fail with that internal error.
type Counter struct {
	mu      sync.Mutex
	seq     int
	total   int
	turn    int
	people  int
	Secret  string
	notify  func()
	closed  bool
	created time.Time
}

// CounterView is what every seat sees.
type CounterView struct {
	Total int   `json:"total"`
	Turn  int   `json:"turn"`
	Seat  int   `json:"seat"`
	Valid []int `json:"valid"`
}

// View implements table.Table.
func (c *Counter) View(v table.Viewer) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq, CounterView{Total: c.total, Turn: c.turn, Seat: int(v.Seat), Valid: []int{1, 2, 3}}
}

// Act implements table.Table.
func (c *Counter) Act(v table.Viewer, seq int, body []byte) error {
	var a struct {
		Add int `json:"add"`
	}
	if err := problem.DecodeStrict(body, &a); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v.Seat.Watching() {
		return table.NotYours("a watcher adds nothing")
	}
	if seq != c.seq {
		return table.ErrStale(seq, c.seq)
	}
	if int(v.Seat) != c.turn {
		return table.Illegal([]int{}, "it is seat %d's turn", c.turn)
	}
	if a.Add < 1 || a.Add > 3 {
		return table.Illegal([]int{1, 2, 3}, "cannot add %d", a.Add)
	}
	c.total += a.Add
	c.turn = (c.turn + 1) % c.people
	c.seq++
	c.notify()
	return nil
}

// Summary implements table.Table.
func (c *Counter) Summary(*i18n.Printer) table.Summary {
	c.mu.Lock()
	defer c.mu.Unlock()
	return table.Summary{Title: "counter", Status: fmt.Sprint(c.total), Created: c.created, Over: c.total >= 100, Review: c.total >= 100}
}

// Review implements table.Reviewer: a page once the game is over.
func (c *Counter) Review(*i18n.Printer) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total < 100 {
		return nil, problem.New(problem.NotFound, "the review opens when the game is over")
	}
	return []byte(fmt.Sprintf("<!DOCTYPE html><title>review</title><p>total %d</p>", c.total)), nil
}

// Close implements table.Table.
func (c *Counter) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

// Closed reports whether the table was closed.
func (c *Counter) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Finish sets the total past the end.
func (c *Counter) Finish() {
	c.mu.Lock()
	c.total = 100
	c.mu.Unlock()
}

// Valid implements table.Scripted.
func (c *Counter) Valid(seat table.Seat) []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= 100 || int(seat) != c.turn {
		return []any{}
	}
	return []any{map[string]int{"add": 1}, map[string]int{"add": 3}}
}

// CounterGame is the counter's entry in a hub; made, when not nil, gets
// each table made.
func CounterGame(made *[]*Counter) *table.Game {
	var mu sync.Mutex
	return &table.Game{
		Name: "counter", Title: "Counter", Blurb: "add to a total", Page: []byte("<!DOCTYPE html><title>counter</title>"),
		Assets: map[string][]byte{"page.js": []byte("'use strict';")},
		New: func(ctx context.Context, opts []byte, env table.Env) (table.Table, table.Seating, error) {
			o := struct {
				Start  int    `json:"start"`
				People *int   `json:"people"`
				Fail   string `json:"fail"`
			}{}
			if err := problem.DecodeStrict(opts, &o); err != nil {
				return nil, table.Seating{}, err
			}
			if o.Fail != "" {
				return nil, table.Seating{}, fmt.Errorf("%s", o.Fail)
			}
			people := 1
			if o.People != nil {
				people = *o.People
			}
			if o.Start < 0 || people < 1 || people > 4 {
				return nil, table.Seating{}, problem.Malformedf("start %d, people %d: want start ≥ 0 and 1 to 4 people", o.Start, people)
			}
			c := &Counter{total: o.Start, people: people, Secret: "SECRET-" + env.ID, notify: env.Notify, created: time.Now()}
			if made != nil {
				mu.Lock()
				*made = append(*made, c)
				mu.Unlock()
			}
			s := table.Seating{Creator: 0}
			for i := 1; i < people; i++ {
				s.Others = append(s.Others, table.Place{Seat: table.Seat(i), Name: fmt.Sprint("seat ", i)})
			}
			return c, s, nil
		},
	}
}
