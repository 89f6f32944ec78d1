package table

import (
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/words"
)

// reader is who a text is written for: the language they read, and
// their seat (a person is "you" to themselves, "your friend" to the
// other person and "a person" to a watcher).
type reader struct {
	words.Words
	seat table.Seat
}

func readerOf(v table.Viewer) reader { return reader{Words: words.Words{P: v.P}, seat: v.Seat} }

// logLine is a line of the table's log, written for each reader when a
// view is made.
type logLine struct {
	n    int
	text func(reader) string
}

// sayLocked adds a line to the log. Called with t.mu held.
func (t *Table) sayLocked(text func(reader) string) {
	t.logN++
	t.log = append(t.log, logLine{n: t.logN, text: text})
	if len(t.log) > 40 {
		t.log = t.log[len(t.log)-40:]
	}
}

// nameFor is the seat's name as r reads it: an engine's title in r's
// language, a person "you" to themselves.
func (s *seat) nameFor(r reader) string {
	switch {
	case s.seat == 0:
		return s.spec.TitleIn(r.Words) + s.tag
	case s.seat == r.seat:
		return r.T("name.you")
	case r.seat.Watching():
		return r.T("name.person")
	}
	return r.T("name.friend")
}

// sideName is "Black (gamebot, level 3 (depth 4))" as r reads it.
func (l *leg) sideName(c int, r reader) string {
	return r.T("sideName", r.Side(c), l.seats[c-1].nameFor(r))
}

// resultFor is how the leg ended, as r reads it: "34–30: Black (you)
// won", with why when the board did not end it. Called with t.mu held.
func (l *leg) resultFor(r reader) string {
	res := l.rec.Result
	if res == nil {
		return ""
	}
	who := r.T("result.draw")
	switch res.Winner {
	case "black":
		who = r.T("result.won", l.sideName(othello.Black, r))
	case "white":
		who = r.T("result.won", l.sideName(othello.White, r))
	}
	if res.Reason != "end" {
		return r.T("result.scoreWhy", res.Black, res.White, who, r.Reason(res.Reason))
	}
	return r.T("result.score", res.Black, res.White, who)
}

// ofLeg is text said of leg l: "Leg 2: text" when the table has two.
func (t *Table) ofLeg(l *leg, r reader, text string) string {
	if len(t.legs) == 1 {
		return text
	}
	return r.T("leg", l.no+1, text)
}

// legTitle is "you – gamebot", of its leg when the table has two.
func (t *Table) legTitle(l *leg, r reader) string {
	return t.ofLeg(l, r, r.T("title", l.seats[0].nameFor(r), l.seats[1].nameFor(r)))
}

// creatorReader is the table's creator reading in p's language.
func (t *Table) creatorReader(p *i18n.Printer) reader {
	return reader{Words: words.Words{P: p}, seat: t.creator}
}
