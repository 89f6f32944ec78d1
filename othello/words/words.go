// Package words holds every Othello text people read, one catalogue per
// language the pages speak (English, French and Malagasy): the browser
// table's page, its keys help, log, results and refusals, and the
// review's page and leg viewer; and names the game's things in them: the
// modes, the colours, the starts, the clocks and how a leg ended.
package words

import (
	"embed"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/othello"
)

//go:embed i18n
var catalogues embed.FS

// Prefix is the catalogues' prefix: "othello.log.pass".
const Prefix = "othello"

func init() { i18n.Register(Prefix, catalogues, "i18n") }

// Words writes Othello's texts in P's language (nil: English).
type Words struct{ P *i18n.Printer }

// For is the words of l.
func For(l i18n.Lang) Words { return Words{P: i18n.For(l)} }

// T is the text of an Othello key ("log.pass") with args.
func (w Words) T(key string, args ...any) string { return w.P.T(Prefix+"."+key, args...) }

// Mode names a mode as its players do: "anti-Othello".
func (w Words) Mode(m othello.Mode) string { return w.T("mode." + m.String()) }

// About says what a mode is: "anti-Othello: fewer discs wins".
func (w Words) About(m othello.Mode) string { return w.T("about." + m.String()) }

// Side names a colour as a side of the board: "Black".
func (w Words) Side(c int) string {
	if c == othello.Black {
		return w.T("side.black")
	}
	return w.T("side.white")
}

// Disc names a colour inside a sentence: "black".
func (w Words) Disc(c int) string {
	if c == othello.Black {
		return w.T("disc.black")
	}
	return w.T("disc.white")
}

// Start names a leg's start as a record names it (initial, xot,
// random): "the initial position".
func (w Words) Start(start string) string {
	switch start {
	case "xot", "random":
		return w.T("start." + start)
	}
	return w.T("start.initial")
}

// Clock says a side's clock: "no clocks", "60 s a side".
func (w Words) Clock(c time.Duration) string {
	if c <= 0 {
		return w.T("clock.none")
	}
	return w.T("clock.side", int(c/time.Second))
}

// Reason names why a leg ended as a record says it ("timeout").
func (w Words) Reason(reason string) string {
	switch reason {
	case "end", "timeout", "illegal", "failed", "resigned", "abandoned":
		return w.T("reason." + reason)
	}
	return reason
}
