package table

import (
	"embed"
	"fmt"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/i18n"
	tables "github.com/botarena/gamebot/internal/table"
)

//go:embed i18n
var catalogues embed.FS

// prefix is this package's catalogues' prefix: "giretra.bid.accept".
const prefix = "giretra"

func init() { i18n.Register(prefix, catalogues, "i18n") }

// reader is who a text is written for: the language they read and their
// seat (-1 watching), which the text calls "you".
type reader struct {
	p    *i18n.Printer
	seat int
}

func (r reader) t(key string, args ...any) string { return r.p.T(prefix+"."+key, args...) }

// Words for people (and for screen readers: no suit symbols). Cards, modes
// and bids are named as the game's players name them in each language.

func (r reader) mode(m giretra.Mode) string {
	if m <= giretra.AllTrumps {
		return r.t(fmt.Sprintf("mode.%d", m))
	}
	return r.t("mode.none")
}

func (r reader) contract(c giretra.Contract) string {
	switch c.Multiplier {
	case giretra.Doubled:
		return r.t("contract.doubled", r.mode(c.Mode))
	case giretra.Redoubled:
		return r.t("contract.redoubled", r.mode(c.Mode))
	}
	return r.mode(c.Mode)
}

func (r reader) bid(a giretra.Action) string {
	switch a.Type {
	case giretra.Accept:
		return r.t("bid.accept")
	case giretra.Announce:
		return r.mode(a.Mode)
	case giretra.Double:
		return r.t("bid.double", r.mode(a.Mode))
	}
	return r.t("bid.redouble", r.mode(a.Mode))
}

func (r reader) cut(c giretra.Cut) string {
	if c.FromTop {
		return r.t("cut.top", c.Position)
	}
	return r.t("cut.bottom", c.Position)
}

// card names a card in words: "Jack of Hearts".
func (r reader) card(c giretra.Card) string {
	return r.t("card", r.t("rank."+c.Rank().String()), r.t("suit."+c.Suit().String()))
}

func (r reader) seatName(p giretra.Position) string { return r.t("seat." + p.String()) }

func (r reader) prompt(kind string) string { return r.t("prompt." + kind) }

// name is a seat's player's name: a person's as the reader knows them
// ("host", "guest"), a bot's as it is called.
func (t *Table) name(r reader, p giretra.Position) string {
	s := t.specs[p]
	if s.kind == kindPerson {
		if tables.Seat(p) == t.creator {
			return r.t("name.host")
		}
		return r.t("name.guest")
	}
	return s.name
}

// who names a seat for the reader: "you", or "Left (Eva)".
func (t *Table) who(r reader, p giretra.Position) string {
	if int(p) == r.seat {
		return r.t("who.you")
	}
	return r.t("who.seat", r.seatName(p), t.name(r, p))
}

// whoCap is who at the start of a sentence: "You", "Left (Eva)".
func (t *Table) whoCap(r reader, p giretra.Position) string {
	if int(p) == r.seat {
		return r.t("who.You")
	}
	return t.who(r, p)
}

// team names a team: "You + gamebot", "Eva + Kialasoa" (a team's name
// is a name, wherever it stands in a sentence).
func (t *Table) team(r reader, team giretra.Team) string {
	a, b := giretra.Position(team), giretra.Position(team)+2
	name := func(p giretra.Position) string {
		if int(p) == r.seat {
			return r.t("who.You")
		}
		return t.name(r, p)
	}
	return r.t("team", name(a), name(b))
}

// result is the match's result: "you + gamebot won 160–48 — you win"
// (the caller holds the lock).
func (t *Table) result(r reader) string {
	res := t.outcome
	if res.Winner == giretra.NoTeam {
		return r.t("result.none", res.Final.Points[0], res.Final.Points[1])
	}
	w, l := res.Final.Points[res.Winner], res.Final.Points[res.Winner.Other()]
	key := "result.won"
	if r.seat >= 0 {
		if giretra.Position(r.seat).Team() == res.Winner {
			key = "result.youWin"
		} else {
			key = "result.youLose"
		}
	}
	return r.t(key, t.team(r, res.Winner), w, l)
}

// dealResult says how a finished deal went.
func (t *Table) dealResult(r reader, d *dealState) string {
	res := d.result
	if res == nil || d.contract == nil {
		return ""
	}
	at := res.AnnouncerTeam
	key := "deal.failed"
	if res.MatchPoints[at] > res.MatchPoints[at.Other()] || res.IsInstantWin && res.SweepingTeam == at {
		key = "deal.made"
	}
	s := r.t(key, r.contract(*d.contract), t.who(r, d.contract.Announcer), res.CardPoints[0], res.CardPoints[1], res.MatchPoints[0], res.MatchPoints[1])
	if res.WasSweep {
		s += " " + r.t("deal.sweep", t.team(r, res.SweepingTeam))
		if res.IsInstantWin {
			s += " " + r.t("deal.colourSweep")
		}
	}
	return s
}

// waiting says who the match waits for (the caller holds the lock).
func (t *Table) waiting(r reader) string {
	switch {
	case t.over:
		return r.t("wait.over")
	case t.cur == nil:
		return r.t("wait.starting")
	}
	if p, ok := t.cur.turn(); ok {
		return r.t("wait.for", t.who(r, p))
	}
	if t.pending != nil && t.pending.kind == decideNext {
		return r.t("wait.next", t.who(r, t.pending.seat))
	}
	return r.t("wait.dealOver")
}
