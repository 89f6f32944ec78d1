package table

import (
	"github.com/botarena/gamebot/battleship/words"
	"github.com/botarena/gamebot/internal/i18n"
	tables "github.com/botarena/gamebot/internal/table"
)

// reader is who a text is written for: the language they read, and
// whether they play at the table (the text says "you") or watch it (the
// text names the person).
type reader struct {
	words.Words
	watching bool
}

func readerOf(v tables.Viewer) reader {
	return reader{Words: words.Words{P: v.P}, watching: v.Seat.Watching()}
}

// player is the person at the table as a reader, in p's language.
func player(p *i18n.Printer) reader { return reader{Words: words.Words{P: p}} }

// logEntry is a line of the log, written for each reader when a view is
// made: "you" is the person, in the reader's language.
type logEntry struct {
	n    int
	text func(reader) string
}

// say adds a line to the log (the caller holds the lock).
func (g *game) say(text func(reader) string) {
	g.logN++
	g.log = append(g.log, logEntry{n: g.logN, text: text})
	if len(g.log) > 2*logKeep {
		g.log = append([]logEntry(nil), g.log[len(g.log)-logKeep:]...)
	}
}

// sayT adds a line that reads the same for every reader: key's text.
func (g *game) sayT(key string, args ...any) {
	g.say(func(r reader) string { return r.T(key, args...) })
}

// logView is the log's last lines, written for r (the caller holds the
// lock).
func (g *game) logView(r reader) []logLine {
	out := []logLine{}
	for _, e := range g.log[max(0, len(g.log)-logKeep):] {
		out = append(out, logLine{N: e.n, Text: e.text(r)})
	}
	return out
}

// youOr is key's text with args for the person, else other's with the
// person's name first: "You fire at 2,3" and "Ana fires at 2,3".
func (g *game) youOr(r reader, key, other string, args ...any) string {
	if r.watching {
		return r.T(other, append([]any{g.s.name}, args...)...)
	}
	return r.T(key, args...)
}

// outcome is the game's result for r: what ended it, who wins, and the
// shots each side fired (the caller holds the lock).
func (g *game) outcome(r reader) string {
	if g.ended == nil {
		return ""
	}
	bot := g.opp.label()
	verdict := g.youOr(r, "result.youWin", "result.wins")
	if g.winner != g.s.you {
		verdict = r.T("result.wins", bot)
		if !r.watching {
			verdict = r.T("result.youLose")
		}
	}
	shots := g.youOr(r, "result.shotsYou", "result.shots", g.shots[g.s.you], bot, g.shots[g.bot()])
	return g.ended(r) + " " + verdict + " " + shots
}
