// Package report turns Giretra game records (giretra/record) into one
// self-contained HTML page, on internal/htmlreport's page kit: the
// subject's win rate over the matches with its Wilson 95% band, results
// per opponent and per game mode, latency histograms of the recorded HTTP
// calls per decision kind, and a deal viewer that steps through the
// bidding and the tricks with the four hands shown. For the terminal: the
// replay of one match as text (Show) and the text form of the referee's
// reports (ValidateText, BenchmarkText, …).
package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/words"
	"github.com/botarena/gamebot/internal/htmlreport"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/stats"
)

//go:embed giretra.html.tmpl
var giretraTemplate string

//go:embed giretra.css
var giretraCSS string

//go:embed giretra.js
var giretraJS string

//go:embed viewer.html.tmpl
var viewerTemplate string

//go:embed match.html.tmpl
var matchTemplate string

// Options shape a report.
type Options struct {
	// Subject is the player the report is about; "" takes the first
	// record's subject.
	Subject string
	// ViewerMatches bounds the matches the deal viewer carries (the page
	// grows by about 1 KB per deal); 0 means 50.
	ViewerMatches int
	// Title is the page's title; "" makes one.
	Title string
}

// Report is what the page shows.
type Report struct {
	Title    string
	Subject  string
	Matches  int // finished matches with the subject
	Wins     int
	Rate     float64
	Lo, Hi   float64
	Stopped  int // matches stopped by an error or an interrupt
	Curve    template.HTML
	Opponent []OpponentRow
	Modes    []ModeRow
	Latency  []htmlreport.LatencyBlock
	Games    []htmlreport.GameRow
	Viewer   template.JS // the deal viewer's data, JSON
	Omitted  int         // matches left out of the viewer
}

// OpponentRow is the subject's results against one opposing team.
type OpponentRow struct {
	Name          string
	Matches, Wins int
	Rate, Lo, Hi  float64
	PointsFor, Ag int
}

// ModeRow is one game mode's contracts, by the announcing team.
type ModeRow struct {
	Mode                  string
	Own, OwnMade, OwnFail int
	Opp, OppMade, OppFail int
}

// Write writes the report page of matches to w.
func Write(w io.Writer, matches []*record.Match, opt Options) error {
	r, err := Build(matches, opt)
	if err != nil {
		return err
	}
	en := words.Words{P: i18n.For(i18n.EN)}
	return htmlreport.Page{Template: giretraTemplate + viewerTemplate, CSS: giretraCSS, JS: giretraJS, Tool: "giretra-ref", P: en.P, Texts: viewerTexts(en)}.Write(w, r)
}

// MatchPage is the review of one match: what each deal was, and the deal
// viewer, in one language.
type MatchPage struct {
	Title        string
	Result       string
	Team1, Team2 string
	Deals        []MatchDeal
	Viewer       template.JS
}

// MatchDeal is a deal's line in the review.
type MatchDeal struct {
	N                              int
	Dealer, Contract, Outcome      string
	CardPoints, MatchPoints, Score string
}

// WriteMatch writes the review of one match, in p's language (nil:
// English): its result, a line a deal with its contract in words, and the
// deal viewer. It reads as one match: no interval, no latency, no list of
// matches.
func WriteMatch(w io.Writer, m *record.Match, p *i18n.Printer) error {
	say := words.Words{P: p}
	team := func(t giretra.Team) string {
		return playerName(say, m.Header.Players[t]) + " + " + playerName(say, m.Header.Players[t+2])
	}
	pg := MatchPage{Team1: team(giretra.Team1), Team2: team(giretra.Team2)}
	pg.Title = say.T("review.title", pg.Team1, pg.Team2, m.Header.Target)
	finished := 0
	for _, d := range m.Deals {
		line := MatchDeal{N: d.Deal, Dealer: say.Seat(giretra.Position(d.Dealer))}
		if c := d.Contract; c != nil {
			line.Contract = say.T("review.contractBy", say.Contract(giretra.Contract{Mode: giretra.Mode(c.Mode), Multiplier: giretra.Multiplier(c.Multiplier)}),
				say.Seat(giretra.Position(c.Announcer)), playerName(say, m.Header.Players[c.Announcer]))
		}
		if r := d.Result; r != nil {
			finished++
			line.Outcome = say.T("viewer.failed")
			if r.Made() {
				line.Outcome = say.T("viewer.made")
			}
			if r.Sweep != nil {
				line.Outcome += " · " + say.T("review.sweep")
			}
			line.CardPoints = fmt.Sprintf("%d–%d", r.CardPoints[0], r.CardPoints[1])
			line.MatchPoints = fmt.Sprintf("%d–%d", r.MatchPoints[0], r.MatchPoints[1])
			line.Score = fmt.Sprintf("%d–%d", r.Score[0], r.Score[1])
		}
		pg.Deals = append(pg.Deals, line)
	}
	switch e := m.End; {
	case e != nil && e.Winner != nil:
		wt := giretra.Team(*e.Winner)
		pg.Result = say.T("review.won", team(wt), e.Score[wt], e.Score[wt.Other()])
	case e != nil && e.Error != "":
		pg.Result = say.T("review.stopped", e.Error)
	default:
		score := [2]int{}
		if n := len(m.Deals); n > 0 && m.Deals[n-1].Result != nil {
			score = m.Deals[n-1].Result.Score
		}
		pg.Result = say.T("review.inPlay", finished, score[0], score[1])
	}
	viewer, _, err := viewerData([]*record.Match{m}, 1, say)
	if err != nil {
		return err
	}
	pg.Viewer = viewer
	return htmlreport.Page{Template: matchTemplate + viewerTemplate, CSS: giretraCSS, JS: giretraJS, Tool: "gamebot play", P: p, Texts: viewerTexts(say)}.Write(w, pg)
}

// Build computes the report.
func Build(matches []*record.Match, opt Options) (*Report, error) {
	if len(matches) == 0 {
		return nil, fmt.Errorf("no match to report")
	}
	subject := opt.Subject
	if subject == "" {
		subject = matches[0].Header.Subject
	}
	r := &Report{Subject: subject, Title: opt.Title}
	if r.Title == "" {
		r.Title = "Giretra report: " + subject
	}
	var with []*record.Match
	for _, m := range matches {
		if m.TeamOf(subject) >= 0 {
			with = append(with, m)
		}
	}
	if len(with) == 0 {
		return nil, fmt.Errorf("%q plays in none of the %d matches", subject, len(matches))
	}
	opp := map[string]*OpponentRow{}
	var oppOrder []string
	var modes [6]ModeRow
	var curve []float64 // running results, 1 win, 0 loss
	for _, m := range with {
		team := giretra.Team(m.TeamOf(subject))
		row := htmlreport.GameRow{Match: m.Header.Match, Text: m.Describe(), Result: "stopped"}
		if m.End != nil && m.End.Winner != nil {
			won := giretra.Team(*m.End.Winner) == team
			r.Matches++
			curve = append(curve, b2f(won))
			row.Result = "lost"
			if won {
				r.Wins++
				row.Result = "won"
			}
			name := m.Header.TeamName(team.Other())
			o := opp[name]
			if o == nil {
				o = &OpponentRow{Name: name}
				opp[name] = o
				oppOrder = append(oppOrder, name)
			}
			o.Matches++
			if won {
				o.Wins++
			}
			o.PointsFor += m.End.Score[team]
			o.Ag += m.End.Score[team.Other()]
		} else {
			r.Stopped++
		}
		r.Games = append(r.Games, row)
		countContracts(&modes, m, team)
	}
	if r.Matches > 0 {
		r.Rate = float64(r.Wins) / float64(r.Matches)
	}
	r.Lo, r.Hi = stats.Wilson(r.Wins, r.Matches)
	for _, name := range oppOrder {
		o := opp[name]
		o.Rate = float64(o.Wins) / float64(o.Matches)
		o.Lo, o.Hi = stats.Wilson(o.Wins, o.Matches)
		r.Opponent = append(r.Opponent, *o)
	}
	for m := range 6 {
		modes[m].Mode = giretra.Mode(m).String()
		r.Modes = append(r.Modes, modes[m])
	}
	r.Curve = htmlreport.Curve(curve, "match")
	r.Latency = latency(with)
	viewer, omitted, err := viewerData(with, opt.ViewerMatches, words.Words{P: i18n.For(i18n.EN)})
	if err != nil {
		return nil, err
	}
	r.Viewer, r.Omitted = viewer, omitted
	return r, nil
}

// countContracts adds m's contracts to modes, by mode: announced by
// team or by the other, made or failed.
func countContracts(modes *[6]ModeRow, m *record.Match, team giretra.Team) {
	for _, d := range m.Deals {
		res := d.Result
		if res == nil {
			continue
		}
		mr := &modes[res.Mode]
		own := giretra.Team(res.AnnouncerTeam) == team
		switch {
		case own && res.Made():
			mr.Own, mr.OwnMade = mr.Own+1, mr.OwnMade+1
		case own:
			mr.Own, mr.OwnFail = mr.Own+1, mr.OwnFail+1
		case res.Made():
			mr.Opp, mr.OppMade = mr.Opp+1, mr.OppMade+1
		default:
			mr.Opp, mr.OppFail = mr.Opp+1, mr.OppFail+1
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// latency is a histogram per player and decision kind of the recorded calls.
func latency(ms []*record.Match) []htmlreport.LatencyBlock {
	by := map[string]map[string][]float64{}
	var players []string
	for _, m := range ms {
		for _, c := range m.Calls {
			p := m.Header.Players[c.Seat]
			if by[p] == nil {
				by[p] = map[string][]float64{}
				players = append(players, p)
			}
			by[p][c.Kind] = append(by[p][c.Kind], c.MS)
		}
	}
	var out []htmlreport.LatencyBlock
	for _, p := range players {
		blk := htmlreport.LatencyBlock{Player: p}
		for _, k := range record.Kinds() {
			if len(by[p][k]) > 0 {
				blk.Kinds = append(blk.Kinds, htmlreport.Histogram(k, by[p][k]))
			}
		}
		out = append(out, blk)
	}
	return out
}

// The deal viewer's data: compact arrays, cards as two-character codes.
type viewerMatch struct {
	N       int          `json:"n"`
	Title   string       `json:"title"`
	Players [4]string    `json:"players"`
	Deals   []viewerDeal `json:"deals"`
}

type viewerDeal struct {
	N        int               `json:"n"`
	Dealer   int               `json:"dealer"`
	Score    [2]int            `json:"score"`
	Cut      string            `json:"cut"`
	Hands    [4][]giretra.Card `json:"hands"` // dealt order: five, then three after the bidding
	Bids     [][2]any          `json:"bids"`  // [seat, text]
	Contract string            `json:"contract"`
	Mode     int               `json:"mode"`
	Tricks   []viewerTrick     `json:"tricks"`
	Result   string            `json:"result"`
}

type viewerTrick struct {
	Leader int            `json:"leader"`
	Cards  []giretra.Card `json:"cards"`
	Winner int            `json:"winner"`
	Points int            `json:"points"`
}

// viewerData is the deal viewer's data for ms (the first limit of them),
// its texts in w's language.
func viewerData(ms []*record.Match, limit int, w words.Words) (template.JS, int, error) {
	if limit <= 0 {
		limit = 50
	}
	omitted := max(0, len(ms)-limit)
	var out []viewerMatch
	for _, m := range ms[:min(len(ms), limit)] {
		vm := viewerMatch{N: m.Header.Match, Title: m.Describe(), Players: m.Header.Players}
		for p, name := range vm.Players {
			vm.Players[p] = playerName(w, name)
		}
		for _, d := range m.Deals {
			if d.Cut == nil {
				continue // stopped before the hands were dealt
			}
			vm.Deals = append(vm.Deals, viewerDealOf(d, w))
		}
		if len(vm.Deals) > 0 {
			out = append(out, vm)
		}
	}
	b, err := json.Marshal(out) // escapes <, > and &: safe inside <script>
	if err != nil {
		return "", 0, err
	}
	return template.JS(b), omitted, nil
}

// viewerDealOf is one deal as the viewer steps through it.
func viewerDealOf(d *record.Deal, w words.Words) viewerDeal {
	vd := viewerDeal{N: d.Deal, Dealer: int(d.Dealer), Score: d.Score, Hands: d.Cut.Hands, Mode: -1, Bids: [][2]any{}, Tricks: []viewerTrick{}}
	vd.Cut = w.T("viewer.cut", w.Seat(giretra.Position(d.Cut.Seat)), w.Cut(giretra.Cut{Position: d.Cut.Position, FromTop: d.Cut.FromTop}))
	for _, b := range d.Bids {
		a := giretra.Action{Type: giretra.ActionType(b.Action), Mode: giretra.NoMode}
		if b.Mode != nil {
			a.Mode = giretra.Mode(*b.Mode)
		}
		vd.Bids = append(vd.Bids, [2]any{int(b.Seat), w.Bid(a)})
	}
	if c := d.Contract; c != nil {
		vd.Mode = int(c.Mode)
		vd.Contract = w.T("viewer.contractBy", w.Contract(giretra.Contract{Mode: giretra.Mode(c.Mode), Multiplier: giretra.Multiplier(c.Multiplier)}), w.Seat(giretra.Position(c.Announcer)))
	}
	for _, t := range d.Tricks {
		vd.Tricks = append(vd.Tricks, viewerTrick{Leader: int(t.Leader), Cards: t.Cards, Winner: int(t.Winner), Points: t.Points})
	}
	if r := d.Result; r != nil {
		made := w.T("viewer.failed")
		if r.Made() {
			made = w.T("viewer.made")
		}
		vd.Result = w.T("viewer.result", r.CardPoints[0], r.CardPoints[1], made, r.MatchPoints[0], r.MatchPoints[1], r.Score[0], r.Score[1])
	}
	return vd
}

// playerName is a record's player name for people: the table's person
// and guest are "You" and "Guest" in the record, and in the reader's
// language on the page.
func playerName(w words.Words, name string) string {
	switch name {
	case "You":
		return w.T("who.You")
	case "Guest":
		return w.T("name.guest")
	}
	return name
}

// viewerTexts are the viewer script's texts (TEXTS), in w's language.
func viewerTexts(w words.Words) map[string]string {
	t := i18n.Catalogue(w.P.Lang(), words.Prefix+".viewer")
	for _, p := range []giretra.Position{giretra.Bottom, giretra.Left, giretra.Top, giretra.Right} {
		t["seat"+string(rune('0'+p))] = w.Seat(p)
	}
	return t
}
