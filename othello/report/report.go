// Package report turns Othello game records (othello/record) into one
// self-contained HTML page on the page kit of internal/htmlreport: each
// player's results, and a viewer that steps through a leg move by move
// (←/→, Home/End, or a click on the move list) with the engines' score
// and depth for each of their moves drawn as a curve, and the leg's
// transcript to copy. The boards are computed here: the page holds no
// rules. The page speaks the language it is given (othello/words'
// catalogues; English by default, as othello-match report writes it).
package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"

	"github.com/botarena/gamebot/internal/htmlreport"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/words"
)

//go:embed viewer.html.tmpl
var pageTemplate string

//go:embed viewer.css
var pageCSS string

//go:embed viewer.js
var pageJS string

// Options shape a report.
type Options struct {
	Title string // "" makes one
	// ViewerLegs bounds the legs the viewer carries (a 10×10 leg is about
	// 10 KB); 0 means 200.
	ViewerLegs int
	// Tool names what made the page ("othello-match report", "gamebot play").
	Tool string
	// P is the page's language (nil: English).
	P *i18n.Printer
}

// Report is what the page shows.
type Report struct {
	Title   string
	Players []PlayerRow
	List    []LegRow
	Viewer  template.JS
	Omitted int
}

// PlayerRow is one player's results over the legs it finished.
type PlayerRow struct {
	Name                string
	Legs, Won, Drawn    int
	Lost                int
	DiscsFor, DiscsAgst int
}

// LegRow is one leg in the list.
type LegRow struct {
	N    int
	Text string
}

// viewerLeg is one leg as the viewer script reads it.
type viewerLeg struct {
	Title   string    `json:"title"`
	Size    int       `json:"size"`
	Players [2]string `json:"players"`
	Boards  []string  `json:"boards"` // per position: one character a square, row by row from a1: . empty, x black, o white, # blocked
	Moves   []string  `json:"moves"`
	Movers  []int     `json:"movers"` // 1 black, 2 white, per move
	Legal   []string  `json:"legal"`  // per position: the mover's legal squares, space-separated (the page marks them)
	Evals   []*evalPt `json:"evals"`  // per move: the engine's score and depth, or null
	Ms      []int64   `json:"ms"`
	Result  string    `json:"result"`
	Script  string    `json:"transcript"`
}

type evalPt struct {
	Black float64 `json:"black"` // the score for black (the mover's score, signed)
	Depth int     `json:"depth"`
	Exact bool    `json:"exact"`
}

// Write writes the page of the legs.
func Write(w io.Writer, legs []record.Leg, opt Options) error {
	r, err := Build(legs, opt)
	if err != nil {
		return err
	}
	tool := opt.Tool
	if tool == "" {
		tool = "othello-match"
	}
	texts := i18n.Catalogue(opt.P.Lang(), words.Prefix+".viewer")
	return htmlreport.Page{Template: pageTemplate, CSS: pageCSS, JS: pageJS, Tool: tool, P: opt.P, Texts: texts}.Write(w, r)
}

// WriteFile writes the page of the legs to the file name.
func WriteFile(name string, legs []record.Leg, opt Options) error {
	var b bytes.Buffer
	if err := Write(&b, legs, opt); err != nil {
		return err
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

// Build computes the page's content, its texts in opt.P's language.
func Build(legs []record.Leg, opt Options) (*Report, error) {
	say := words.Words{P: opt.P}
	r := &Report{Title: opt.Title}
	if r.Title == "" {
		r.Title = say.T("review.titleLegs", len(legs))
		if len(legs) == 1 {
			r.Title = say.T("review.title", legs[0].Players[0].Name, legs[0].Players[1].Name)
		}
	}
	limit := opt.ViewerLegs
	if limit <= 0 {
		limit = 200
	}
	rows := map[string]*PlayerRow{}
	var order []string
	row := func(name string) *PlayerRow {
		if rows[name] == nil {
			rows[name] = &PlayerRow{Name: name}
			order = append(order, name)
		}
		return rows[name]
	}
	var viewer []viewerLeg
	for i := range legs {
		l := &legs[i]
		rp, err := l.Check()
		if err != nil {
			return nil, fmt.Errorf("leg %d: %w", i+1, err)
		}
		text := describe(say, l)
		r.List = append(r.List, LegRow{N: i + 1, Text: text})
		if res := l.Result; res != nil && res.Reason != record.ReasonAbandoned {
			for c := range 2 {
				p := row(l.Players[c].Name)
				p.Legs++
				own, other := res.Black, res.White
				if c == 1 {
					own, other = other, own
				}
				p.DiscsFor += own
				p.DiscsAgst += other
				switch {
				case res.Winner == "draw":
					p.Drawn++
				case res.Winner == record.WinnerName(c+1):
					p.Won++
				default:
					p.Lost++
				}
			}
		}
		if len(viewer) >= limit {
			r.Omitted++
			continue
		}
		viewer = append(viewer, viewerOf(say, l, rp, text))
	}
	for _, n := range order {
		r.Players = append(r.Players, *rows[n])
	}
	b, err := json.Marshal(viewer)
	if err != nil {
		return nil, err
	}
	r.Viewer = template.JS(b)
	return r, nil
}

// describe is a leg in a line: its mode, start, players, match and
// result.
func describe(say words.Words, l *record.Leg) string {
	s := say.T("review.leg", l.Mode, say.T("review.start."+startKey(l.Start)), l.Players[0].Name, l.Players[1].Name)
	if l.Match != "" {
		s += say.T("review.match", l.Match, l.LegNo+1)
	}
	if res := l.Result; res != nil {
		return say.T("review.ended", s, resultText(say, res))
	}
	return say.T("review.unfinished", s, len(l.Moves))
}

// startKey is a record's start as a catalogue names it.
func startKey(start string) string {
	switch start {
	case record.StartXOT, record.StartRandom:
		return start
	}
	return record.StartInitial
}

// resultText is "34–30, black won (end)".
func resultText(say words.Words, res *record.Result) string {
	who := say.T("review.draw")
	switch res.Winner {
	case "black":
		who = say.T("review.won", say.Disc(othello.Black))
	case "white":
		who = say.T("review.won", say.Disc(othello.White))
	}
	return say.T("review.result", res.Black, res.White, who, say.Reason(res.Reason))
}

func viewerOf(say words.Words, l *record.Leg, rp *record.Replay, text string) viewerLeg {
	size := rp.Mode.Size()
	v := viewerLeg{Title: text, Size: size, Players: [2]string{l.Players[0].Name, l.Players[1].Name}, Script: l.Transcript()}
	for _, st := range rp.States {
		v.Boards = append(v.Boards, st.Picture())
		var legal []string
		for _, sq := range st.LegalMoves() {
			legal = append(legal, othello.SquareName(sq, size))
		}
		v.Legal = append(v.Legal, strings.Join(legal, " "))
	}
	for i, m := range l.Moves {
		mover := rp.States[i].Turn
		v.Moves = append(v.Moves, m.Move)
		v.Movers = append(v.Movers, mover)
		v.Ms = append(v.Ms, m.Ms)
		var e *evalPt
		if m.Score != nil {
			b := *m.Score
			if mover == othello.White {
				b = -b
			}
			e = &evalPt{Black: b, Depth: m.Depth, Exact: m.Exact}
		}
		v.Evals = append(v.Evals, e)
	}
	if res := l.Result; res != nil {
		v.Result = resultText(say, res)
	}
	return v
}
