package table

import (
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/words"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

// actionBody is what the page sends: one of a decision (cut, bid, card,
// next) or a view control (show, control).
type actionBody struct {
	Cut *struct {
		Position int  `json:"position"`
		FromTop  bool `json:"fromTop"`
	} `json:"cut"`
	Bid *struct {
		Type string `json:"type"`
		Mode string `json:"mode"`
	} `json:"bid"`
	Card    *string `json:"card"`
	Next    bool    `json:"next"`
	Show    *int    `json:"show"`    // the finished deal to detail
	Control string  `json:"control"` // pause, resume, step, speed (watching four bots)
	Pace    *int    `json:"pace"`    // with speed
}

func (a *actionBody) count() int {
	n := 0
	for _, set := range []bool{a.Cut != nil, a.Bid != nil, a.Card != nil, a.Next, a.Show != nil, a.Control != ""} {
		if set {
			n++
		}
	}
	return n
}

// actionForms is the actions' shapes, for the error that asks for one.
const actionForms = `{"cut": {"position": 6..26, "fromTop": true}}, {"bid": {"type": "Announcement", "mode": "ColourHearts"}}, {"card": "JH"}, {"next": true}, {"show": deal}, {"control": "pause"|"resume"|"step"|"speed", "pace": ms}`

// Act applies v's action. A decision is checked against the seat, the
// version it was decided on and the options offered; the view controls
// decide nothing in the game and apply whatever the version: which
// finished deal the seat's page details, and (the creator of a table of
// four bots only) pause, step and speed.
func (t *Table) Act(v tables.Viewer, seq int, body []byte) error {
	var a actionBody
	if err := problem.DecodeStrict(body, &a); err != nil {
		return err
	}
	if a.count() != 1 {
		return problem.Malformedf("an action is exactly one of %s", actionForms)
	}
	r := reader{Words: words.Words{P: v.P}, seat: int(v.Seat)}
	switch {
	case a.Show != nil:
		return t.show(v.Seat, *a.Show)
	case a.Control != "":
		return t.control(r, v.Seat, a.Control, a.Pace)
	}
	if v.Seat.Watching() {
		return tables.NotYours("%s", r.T("err.watcher"))
	}
	t.mu.Lock()
	if seq != t.seq {
		cur := t.seq
		t.mu.Unlock()
		return tables.ErrStale(seq, cur)
	}
	ans, err := t.decideLocked(r, &a)
	if err != nil {
		t.mu.Unlock()
		return err
	}
	t.pending = nil
	t.seq++
	t.mu.Unlock()
	t.answers <- ans
	t.env.Notify()
	return nil
}

// decideLocked checks the reader's decision against the one pending and
// applies it to the table.
func (t *Table) decideLocked(r reader, a *actionBody) (answer, error) {
	p := t.pending
	if p == nil || int(p.seat) != r.seat {
		return answer{}, tables.Illegal([]string{}, "%s", r.T("err.notYours", t.waiting(r)))
	}
	kind := decideCut
	switch {
	case a.Bid != nil:
		kind = decideBid
	case a.Card != nil:
		kind = decideCard
	case a.Next:
		kind = decideNext
	}
	if kind != p.kind {
		return answer{}, tables.Illegal(p.options(), "%s", r.T("err.otherKind", r.prompt(p.kind)))
	}
	switch kind {
	case decideCut:
		c := giretra.Cut{Position: a.Cut.Position, FromTop: a.Cut.FromTop}
		if !c.Valid() {
			return answer{}, tables.Illegal(p.options(), "%s", r.T("err.cut", c.Position))
		}
		t.cutLocked(p.seat, c, false)
		return answer{cut: c}, nil
	case decideBid:
		typ, okT := giretra.ParseActionType(a.Bid.Type)
		mode, okM := giretra.ParseMode(a.Bid.Mode)
		if !okM {
			mode = giretra.NoMode
		}
		chosen, ok := offered(giretra.Action{Type: typ, Mode: mode}, p.bids)
		if !okT || !ok || typ != giretra.Accept && !okM {
			return answer{}, tables.Illegal(p.options(), "%s", r.T("err.bid"))
		}
		chosen.Player = p.seat
		t.bidLocked(chosen)
		return answer{bid: chosen}, nil
	case decideCard:
		c, ok := parseCard(*a.Card)
		if !ok || !p.cards.Has(c) {
			return answer{}, tables.Illegal(p.options(), "%s", r.T("err.card"))
		}
		t.cardLocked(p.seat, c)
		return answer{card: c}, nil
	}
	return answer{}, nil
}

// options are the pending decision's valid options, as the page sends
// them back.
func (d *decision) options() any {
	switch d.kind {
	case decideCut:
		return map[string]int{"min": 6, "max": 26}
	case decideBid:
		return bidOptions(reader{}, d.bids)
	case decideCard:
		return cardCodes(d.cards, giretra.NoMode)
	}
	return []string{"next"}
}

// show picks the finished deal seat's page details.
func (t *Table) show(seat tables.Seat, n int) error {
	t.mu.Lock()
	if n < 1 || n > len(t.deals) {
		finished := len(t.deals)
		t.mu.Unlock()
		return tables.Illegal(map[string]int{"min": 1, "max": finished}, "deal %d has not finished: %d deals have", n, finished)
	}
	t.shown[seat] = n
	t.seq++
	t.shownAt[seat] = t.seq
	t.mu.Unlock()
	t.env.Notify()
	return nil
}

// control pauses, resumes, steps or sets the pace of a table of four
// bots, for its creator.
func (t *Table) control(r reader, seat tables.Seat, c string, pace *int) error {
	valid := []string{"pause", "resume", "step", "speed"}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.bots || seat != tables.Host {
		return tables.NotYours("%s", r.T("err.controls"))
	}
	switch c {
	case "pause":
		t.paused = true
	case "resume":
		t.paused = false
	case "step":
		t.paused = true
		t.steps++
	case "speed":
		if pace == nil || *pace < 0 || *pace > maxPace {
			return tables.Illegal(map[string]int{"min": 0, "max": maxPace}, "speed: pace (ms) 0..%d", maxPace)
		}
		t.pace = time.Duration(*pace) * time.Millisecond
	default:
		return tables.Illegal(valid, "no control %q", c)
	}
	close(t.wake)
	t.wake = make(chan struct{})
	t.seq++
	t.env.Notify()
	return nil
}
