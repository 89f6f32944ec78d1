package table

import (
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/words"
	tables "github.com/botarena/gamebot/internal/table"
)

// reader is who a text is written for: the language they read and their
// seat (-1 watching), which the text calls "you".
type reader struct {
	words.Words
	seat int
}

func (r reader) prompt(kind string) string { return r.T("prompt." + kind) }

// name is a seat's player's name: a person's as the reader knows them
// ("host", "guest"), a bot's as it is called.
func (t *Table) name(r reader, p giretra.Position) string {
	s := t.specs[p]
	if s.kind == kindPerson {
		if tables.Seat(p) == t.creator {
			return r.T("name.host")
		}
		return r.T("name.guest")
	}
	return s.name
}

// who names a seat for the reader: "you", or "Left (Eva)".
func (t *Table) who(r reader, p giretra.Position) string {
	if int(p) == r.seat {
		return r.T("who.you")
	}
	return r.T("who.seat", r.Seat(p), t.name(r, p))
}

// whoCap is who at the start of a sentence: "You", "Left (Eva)".
func (t *Table) whoCap(r reader, p giretra.Position) string {
	if int(p) == r.seat {
		return r.T("who.You")
	}
	return t.who(r, p)
}

// team names a team: "You + gamebot", "Eva + Kialasoa" (a team's name
// is a name, wherever it stands in a sentence).
func (t *Table) team(r reader, team giretra.Team) string {
	a, b := giretra.Position(team), giretra.Position(team)+2
	name := func(p giretra.Position) string {
		if int(p) == r.seat {
			return r.T("who.You")
		}
		return t.name(r, p)
	}
	return r.T("team", name(a), name(b))
}

// result is the match's result: "you + gamebot won 160–48 — you win"
// (the caller holds the lock).
func (t *Table) result(r reader) string {
	res := t.outcome
	if res.Winner == giretra.NoTeam {
		return r.T("result.none", res.Final.Points[0], res.Final.Points[1])
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
	return r.T(key, t.team(r, res.Winner), w, l)
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
	s := r.T(key, r.Contract(*d.contract), t.who(r, d.contract.Announcer), res.CardPoints[0], res.CardPoints[1], res.MatchPoints[0], res.MatchPoints[1])
	if res.WasSweep {
		s += " " + r.T("deal.sweep", t.team(r, res.SweepingTeam))
		if res.IsInstantWin {
			s += " " + r.T("deal.colourSweep")
		}
	}
	return s
}

// waiting says who the match waits for (the caller holds the lock).
func (t *Table) waiting(r reader) string {
	switch {
	case t.over:
		return r.T("wait.over")
	case t.cur == nil:
		return r.T("wait.starting")
	}
	if p, ok := t.cur.turn(); ok {
		return r.T("wait.for", t.who(r, p))
	}
	if t.pending != nil && t.pending.kind == decideNext {
		return r.T("wait.next", t.who(r, t.pending.seat))
	}
	return r.T("wait.dealOver")
}
