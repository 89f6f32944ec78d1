// Package words holds every battleship text people read, one catalogue
// per language the pages speak (English, French and Malagasy): the
// table's page, its log, results and refusals, and the review's duel
// viewer; and says in words a shot's answer and why a bot lost by its
// answer, quoting nothing the bot sent.
package words

import (
	"context"
	"embed"
	"errors"
	"net"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/internal/i18n"
)

//go:embed i18n
var catalogues embed.FS

// Prefix is the catalogues' prefix: "battleship.log.cleared".
const Prefix = "battleship"

func init() { i18n.Register(Prefix, catalogues, "i18n") }

// Words writes battleship's texts in P's language (nil: English).
type Words struct{ P *i18n.Printer }

// For is the words of l.
func For(l i18n.Lang) Words { return Words{P: i18n.For(l)} }

// T is the text of a battleship key ("log.cleared") with args.
func (w Words) T(key string, args ...any) string { return w.P.T(Prefix+"."+key, args...) }

// Result names a shot's answer as the arena gives it: "miss", "hit",
// "hit and sunk" (the last shot's "win" is a sinking too).
func (w Words) Result(r string) string {
	switch r {
	case battleship.ResultMiss:
		return w.T("shot.miss")
	case battleship.ResultHit:
		return w.T("shot.hit")
	}
	return w.T("shot.sunk")
}

// Reason says why a bot's exchange or answer failed, as
// battleship/remote.Reason does, in w's language: a timeout, a refused
// connection, an answer that is not what the arena reads (its plain
// reason, by name). Nothing the bot sent is in it.
func (w Words) Reason(err error) string {
	var ia *wire.InvalidAnswer
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ia) && ia.Why != "":
		return w.T("fault.answerWhy", w.T("why."+ia.Why, ia.Args...))
	case errors.As(err, &ia):
		return w.T("fault.answer")
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return w.T("fault.timeout")
	}
	return w.T("fault.unreachable")
}
