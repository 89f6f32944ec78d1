// Package report turns battleship duel records (battleship/record) into
// one self-contained HTML page, on the page kit of internal/htmlreport:
// the subject's win rate with its Wilson 95% band, results and shots to
// win per opponent, latency histograms of the recorded HTTP calls (init,
// play-turn), and a duel viewer that steps through a game shot by shot
// (battleref report, in English). WriteDuel is the review of one game,
// in a reader's language: its result, each side's shots, and the viewer.
package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/words"
	"github.com/botarena/gamebot/internal/htmlreport"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/stats"
)

//go:embed duel.html.tmpl
var duelTemplate string

//go:embed review.html.tmpl
var reviewTemplate string

//go:embed viewer.html.tmpl
var viewerTemplate string

//go:embed duel.css
var duelCSS string

//go:embed duel.js
var duelJS string

// Options shape a battleship report.
type Options struct {
	// Subject is the player the report is about; "" takes the first
	// record's subject (battleref -bot).
	Subject string
	// ViewerGames bounds the games the duel viewer carries (a game on a
	// 10x10 board is about 1 KB); 0 means 200.
	ViewerGames int
	// Title is the page's title; "" makes one.
	Title string
}

// Report is what the battleship page shows.
type Report struct {
	Title   string
	Subject string
	Boards  []string // the boards played, "10x10, ships 0,1,2,1,1,0"
	Games   int      // finished games with the subject
	Wins    int
	Rate    float64
	Lo, Hi  float64
	Stopped int // games stopped by an error or an interrupt
	// Invalid counts the subject's losses by an invalid answer, OppInvalid
	// its wins by the opponent's.
	Invalid, OppInvalid int
	// Shots and OppShots are the shots each side fired in the games it won
	// by sinking the other fleet.
	Shots, OppShots ShotSummary
	Curve           template.HTML
	Opponent        []OpponentRow
	Latency         []htmlreport.LatencyBlock
	List            []htmlreport.GameRow
	Viewer          template.JS // the duel viewer's data, JSON
	Omitted         int         // games left out of the viewer
}

// ShotSummary summarises shot counts.
type ShotSummary struct {
	N         int
	Mean      float64
	Median    float64
	Min, Max  int
	MeanLo95  float64 // the mean's 95% interval
	MeanHi95  float64
	HasSpread bool // N > 1: the interval means something
}

func summarize(v []int) ShotSummary {
	if len(v) == 0 {
		return ShotSummary{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	m := stats.MeanCI(s)
	return ShotSummary{N: n, Mean: m.Mean, Median: float64(stats.Quantile(s, 0.5)), Min: s[0], Max: s[n-1], MeanLo95: m.Lo, MeanHi95: m.Hi, HasSpread: n > 1}
}

// OpponentRow is the subject's results against one opponent.
type OpponentRow struct {
	Name            string
	Games, Wins     int
	Rate, Lo, Hi    float64
	Shots, OppShots ShotSummary // shots to win: the subject's, the opponent's
}

// Write writes the battleship report page of duels to w, in English.
func Write(w io.Writer, duels []*record.Duel, opt Options) error {
	r, err := Build(duels, opt)
	if err != nil {
		return err
	}
	en := words.For(i18n.EN)
	return htmlreport.Page{Template: duelTemplate + viewerTemplate, CSS: duelCSS, JS: duelJS, Tool: "battleref", P: en.P, Texts: viewerTexts(en)}.Write(w, r)
}

// viewerTexts are the duel viewer's words in w's language, which its
// script reads as TEXTS.
func viewerTexts(w words.Words) map[string]string {
	return i18n.Catalogue(w.P.Lang(), words.Prefix+".viewer")
}

// DuelOptions shape the review of one game.
type DuelOptions struct {
	// Title is the page's title ("" makes one).
	Title string
	// Result says how the game ended, in the page's language ("": said
	// from the record).
	Result string
}

// DuelPage is the review of one game.
type DuelPage struct {
	Title  string
	Result string
	Board  string // the board and the fleet
	First  string // who shot first
	Sides  [2]SideRow
	Timed  bool        // a side is a bot server: its answer times are shown
	Viewer template.JS // the duel viewer's data, JSON
}

// SideRow is one side's shots in the review.
type SideRow struct {
	Name                     string
	Shots, Hits, Sunk, Ships int // Ships: the other side's fleet
	Time                     string
}

// WriteDuel writes the review of one game to w in p's language (nil:
// English): its result, the board, each side's shots, hits and ships
// sunk (and a bot server's answer times), and the duel viewer. It reads
// as one game: no win rate, interval, histogram or list of games.
func WriteDuel(w io.Writer, d *record.Duel, p *i18n.Printer, opt DuelOptions) error {
	say := words.Words{P: p}
	h := &d.Header
	pg := DuelPage{Title: opt.Title, Result: opt.Result, First: h.Players[0]}
	if pg.Title == "" {
		pg.Title = say.T("review.title", h.Players[0], h.Players[1])
	}
	if pg.Result == "" {
		pg.Result = endLine(say, d)
	}
	f := h.Fleet
	pg.Board = say.T("log.board", h.Width, h.Height, f[0], f[1], f[2], f[3], f[4], f[5])
	ships := 0
	for _, n := range f {
		ships += n
	}
	var ms [2][]float64
	for i := range 2 {
		pg.Sides[i] = SideRow{Name: h.Players[i], Ships: ships}
		if h.HTTP[i] && d.Fleets[i] != nil {
			ms[i] = append(ms[i], d.FleetMS[i])
		}
	}
	for _, s := range d.Shots {
		side := &pg.Sides[s.Seat&1]
		side.Shots++
		if s.Result != record.ResultMiss {
			side.Hits++
		}
		if s.Result == record.ResultSunk {
			side.Sunk++
		}
		if h.HTTP[s.Seat&1] {
			ms[s.Seat&1] = append(ms[s.Seat&1], s.MS)
		}
	}
	for i, v := range ms {
		if len(v) == 0 {
			continue
		}
		slices.Sort(v)
		pg.Timed = true
		pg.Sides[i].Time = say.T("review.ms", stats.Quantile(v, 0.5), v[len(v)-1])
	}
	viewer, _, err := duelViewerData([]*record.Duel{d}, 1, func(d *record.Duel) viewerDuel {
		return viewerDuel{Title: say.T("review.game", h.Players[0], h.Players[1]), End: pg.Result, Subject: -1}
	})
	if err != nil {
		return err
	}
	pg.Viewer = viewer
	return htmlreport.Page{Template: reviewTemplate + viewerTemplate, CSS: duelCSS, JS: duelJS, Tool: "gamebot play", P: p, Texts: viewerTexts(say)}.Write(w, pg)
}

// endLine says how d ended, from its record.
func endLine(say words.Words, d *record.Duel) string {
	h := &d.Header
	switch e := d.End; {
	case e == nil:
		return say.T("review.cutShort")
	case e.Winner != nil:
		w := *e.Winner & 1
		s := say.T("review.wins", h.Players[w], e.Shots[w], h.Players[1-w], e.Shots[1-w])
		if e.Invalid != "" {
			s += say.T("review.invalid", h.Players[1-w], e.Invalid)
		}
		return s
	}
	return say.T("review.stopped", d.End.Error)
}

// Build computes the battleship report.
func Build(duels []*record.Duel, opt Options) (*Report, error) {
	if len(duels) == 0 {
		return nil, fmt.Errorf("no game to report")
	}
	subject := opt.Subject
	if subject == "" {
		subject = duels[0].Header.Subject
	}
	r := &Report{Subject: subject, Title: opt.Title}
	if r.Title == "" {
		r.Title = "Battleship report: " + subject
	}
	var with []*record.Duel
	for _, d := range duels {
		if d.Header.Players[d.Header.SubjectSeat] == subject {
			with = append(with, d)
		}
	}
	if len(with) == 0 {
		return nil, fmt.Errorf("%q is the subject of none of the %d games", subject, len(duels))
	}
	t := &tally{r: r, opps: map[string]*oppTally{}, lat: map[string]map[string][]float64{}}
	for _, d := range with {
		t.add(d)
	}
	t.fill()
	var err error
	en := words.For(i18n.EN)
	r.Viewer, r.Omitted, err = duelViewerData(with, opt.ViewerGames, func(d *record.Duel) viewerDuel {
		return viewerDuel{Title: d.Describe(), End: endLine(en, d), Subject: d.Header.SubjectSeat}
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// tally is a report in the making: the subject's games counted one by
// one.
type tally struct {
	r           *Report
	opps        map[string]*oppTally
	order       []string // opponents, as first met
	curve       []float64
	shots, agst []int // shots to win: the subject's, its opponents'
	lat         map[string]map[string][]float64
	latOrder    []string
}

type oppTally struct {
	row         OpponentRow
	shots, agst []int
}

// add counts one of the subject's games.
func (t *tally) add(d *record.Duel) {
	r, h := t.r, &d.Header
	me := h.SubjectSeat
	board := fmt.Sprintf("%dx%d, ships %d,%d,%d,%d,%d,%d", h.Width, h.Height, h.Fleet[0], h.Fleet[1], h.Fleet[2], h.Fleet[3], h.Fleet[4], h.Fleet[5])
	if !slices.Contains(r.Boards, board) {
		r.Boards = append(r.Boards, board)
	}
	t.latencies(d)
	row := htmlreport.GameRow{Match: h.Game, Text: d.Describe(), Result: "stopped"}
	won := d.Winner()
	if won < 0 {
		r.Stopped++
		r.List = append(r.List, row)
		return
	}
	o := t.opponent(h.Players[1-me])
	r.Games++
	o.row.Games++
	t.curve = append(t.curve, float64(won))
	e := d.End
	switch {
	case won == 1:
		r.Wins++
		o.row.Wins++
		row.Result = "won"
		if e.Invalid != "" {
			r.OppInvalid++
		} else {
			t.shots = append(t.shots, e.Shots[me])
			o.shots = append(o.shots, e.Shots[me])
		}
	default:
		row.Result = "lost"
		if e.Invalid != "" {
			r.Invalid++
		} else {
			t.agst = append(t.agst, e.Shots[1-me])
			o.agst = append(o.agst, e.Shots[1-me])
		}
	}
	r.List = append(r.List, row)
}

func (t *tally) opponent(name string) *oppTally {
	o := t.opps[name]
	if o == nil {
		o = &oppTally{row: OpponentRow{Name: name}}
		t.opps[name] = o
		t.order = append(t.order, name)
	}
	return o
}

// latencies keeps the bot servers' times to answer in d.
func (t *tally) latencies(d *record.Duel) {
	h := &d.Header
	add := func(player, kind string, ms float64) {
		if t.lat[player] == nil {
			t.lat[player] = map[string][]float64{}
			t.latOrder = append(t.latOrder, player)
		}
		t.lat[player][kind] = append(t.lat[player][kind], ms)
	}
	for i := range 2 {
		if h.HTTP[i] && d.Fleets[i] != nil {
			add(h.Players[i], "init", d.FleetMS[i])
		}
	}
	for _, s := range d.Shots {
		if h.HTTP[s.Seat] {
			add(h.Players[s.Seat], "play-turn", s.MS)
		}
	}
}

// fill computes the report's figures once every game is counted.
func (t *tally) fill() {
	r := t.r
	if r.Games > 0 {
		r.Rate = float64(r.Wins) / float64(r.Games)
	}
	r.Lo, r.Hi = stats.Wilson(r.Wins, r.Games)
	r.Shots, r.OppShots = summarize(t.shots), summarize(t.agst)
	for _, name := range t.order {
		o := t.opps[name]
		o.row.Rate = float64(o.row.Wins) / float64(o.row.Games)
		o.row.Lo, o.row.Hi = stats.Wilson(o.row.Wins, o.row.Games)
		o.row.Shots, o.row.OppShots = summarize(o.shots), summarize(o.agst)
		r.Opponent = append(r.Opponent, o.row)
	}
	r.Curve = htmlreport.Curve(t.curve, "game")
	for _, p := range t.latOrder {
		blk := htmlreport.LatencyBlock{Player: p}
		for _, k := range []string{"init", "play-turn"} {
			if len(t.lat[p][k]) > 0 {
				blk.Kinds = append(blk.Kinds, htmlreport.Histogram(k, t.lat[p][k]))
			}
		}
		r.Latency = append(r.Latency, blk)
	}
}

// The duel viewer's data: compact arrays.
type viewerDuel struct {
	N       int                `json:"n"`
	Title   string             `json:"title"`
	Players [2]string          `json:"players"`
	Subject int                `json:"subject"` // -1: none marked
	W       int                `json:"w"`
	H       int                `json:"h"`
	Fleets  [2][][]record.Cell `json:"fleets"` // by seat, each ship's cells
	Shots   [][5]any           `json:"shots"`  // [seat, x, y, result, ship hit (-1: none)]
	End     string             `json:"end"`
}

// duelViewerData is the viewer's data of the first limit games of ds
// with both fleets, each with its title, end and subject as said says.
func duelViewerData(ds []*record.Duel, limit int, said func(*record.Duel) viewerDuel) (template.JS, int, error) {
	if limit <= 0 {
		limit = 200
	}
	omitted := max(0, len(ds)-limit)
	out := []viewerDuel{}
	for _, d := range ds[:min(len(ds), limit)] {
		if d.Fleets[0] == nil || d.Fleets[1] == nil {
			continue // lost at init: nothing to show
		}
		h := &d.Header
		v := said(d)
		v.N, v.Players, v.W, v.H, v.Shots = h.Game, h.Players, h.Width, h.Height, [][5]any{}
		for i := range 2 {
			v.Fleets[i] = [][]record.Cell{}
			for _, s := range d.Fleets[i] {
				v.Fleets[i] = append(v.Fleets[i], record.ShipCells(s))
			}
		}
		for _, s := range d.Shots {
			v.Shots = append(v.Shots, [5]any{s.Seat, s.Cell[0], s.Cell[1], s.Result, s.Ship})
		}
		out = append(out, v)
	}
	b, err := json.Marshal(out) // escapes <, > and &: safe inside <script>
	if err != nil {
		return "", 0, err
	}
	return template.JS(b), omitted, nil
}
