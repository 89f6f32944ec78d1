// Package htmlreport turns game records (internal/record) into one
// self-contained HTML page: inline CSS, JavaScript and SVG, nothing
// fetched from the network. Every page shares the scaffolding of
// layout.html.tmpl and base.css, the win-rate curve and the latency
// histograms; each game adds its template, style and viewer script.
//
// Giretra (Write, giretra.*): the subject's win rate over the matches
// with its Wilson 95% band, results per opponent and per game mode,
// latency histograms of the recorded HTTP calls per decision kind, and a
// deal viewer that steps through the bidding and the tricks with the four
// hands shown.
//
// Battleship: battleship/report, on the kit of kit.go.
package htmlreport

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/record"
	"github.com/botarena/gamebot/internal/stats"
)

//go:embed layout.html.tmpl
var layoutTemplate string

//go:embed base.css
var baseCSS string

//go:embed giretra.html.tmpl
var giretraTemplate string

//go:embed giretra.css
var giretraCSS string

//go:embed giretra.js
var giretraJS string

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
	Latency  []LatencyBlock
	Games    []GameRow
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

// LatencyBlock is one player's latency histograms, one per decision kind.
type LatencyBlock struct {
	Player string
	Kinds  []KindHistogram
}

// KindHistogram is one decision kind's latency histogram.
type KindHistogram struct {
	Kind               string
	Count              int
	P50, P95, P99, Max float64
	SVG                template.HTML
}

// GameRow is one match in the list.
type GameRow struct {
	Match  int
	Text   string
	Result string // won, lost, stopped
}

// Write writes the report page of matches to w.
func Write(w io.Writer, matches []*record.Match, opt Options) error {
	r, err := Build(matches, opt)
	if err != nil {
		return err
	}
	return writePage(w, giretraTemplate, giretraCSS, giretraJS, "giretra-ref", r)
}

// writePage executes a page template, which uses layout.html.tmpl's
// "head" and "foot", on data: a struct with a Title and a Viewer (the
// viewer script's DATA). The page's style is base.css and css, its
// script js; tool names the command that made it.
func writePage(w io.Writer, page, css, js, tool string, data any) error {
	funcs := template.FuncMap{
		"pct":  func(f float64) float64 { return 100 * f },
		"css":  func() template.CSS { return template.CSS(baseCSS + css) },
		"js":   func() template.JS { return template.JS(js) },
		"tool": func() string { return tool },
	}
	t, err := template.New("layout").Funcs(funcs).Parse(layoutTemplate)
	if err == nil {
		t, err = t.New("page").Parse(page)
	}
	if err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "page", data)
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
		row := GameRow{Match: m.Header.Match, Text: m.Describe(), Result: "stopped"}
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
	r.Curve = curveSVG(curve, "match")
	r.Latency = latency(with)
	viewer, omitted, err := viewerData(with, opt.ViewerMatches)
	if err != nil {
		return nil, err
	}
	r.Viewer, r.Omitted = viewer, omitted
	return r, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// curveSVG draws the running win rate after each game (noun: "match",
// "game") with its Wilson 95% band, and the 50% line.
func curveSVG(results []float64, noun string) template.HTML {
	const w, h, pad = 640.0, 220.0, 36.0
	n := len(results)
	if n == 0 {
		return template.HTML(`<p class="muted">No finished ` + noun + `.</p>`)
	}
	x := func(i int) float64 {
		if n == 1 {
			return pad + (w-2*pad)/2
		}
		return pad + (w-2*pad)*float64(i)/float64(n-1)
	}
	y := func(v float64) float64 { return h - pad - (h-2*pad)*v }
	var line, upper, lower []string
	wins := 0
	for i, v := range results {
		wins += int(v)
		lo, hi := stats.Wilson(wins, i+1)
		line = append(line, fmt.Sprintf("%.1f,%.1f", x(i), y(float64(wins)/float64(i+1))))
		upper = append(upper, fmt.Sprintf("%.1f,%.1f", x(i), y(hi)))
		lower = append(lower, fmt.Sprintf("%.1f,%.1f", x(i), y(lo)))
	}
	slices.Reverse(lower)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="win rate after each %s">`, w, h, noun)
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f"/><text class="axis" x="%.0f" y="%.1f">%.0f%%</text>`,
			pad, w-pad, y(v), y(v), pad-4, y(v)+4, 100*v)
	}
	fmt.Fprintf(&b, `<polygon class="band" points="%s %s"/>`, strings.Join(upper, " "), strings.Join(lower, " "))
	fmt.Fprintf(&b, `<polyline class="rate" points="%s"/>`, strings.Join(line, " "))
	fmt.Fprintf(&b, `<text class="axis start" x="%.0f" y="%.0f">%s 1</text><text class="axis end" x="%.0f" y="%.0f">%s %d</text>`,
		pad, h-pad+18, noun, w-pad, h-pad+18, noun, n)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// Latency buckets: powers of two of milliseconds from 1/32 ms.
const (
	bucketBase = 1.0 / 32
	nBuckets   = 20 // up to 2^15 ms ≈ 33 s
)

func bucketOf(ms float64) int {
	if ms <= bucketBase {
		return 0
	}
	return min(nBuckets-1, int(math.Ceil(math.Log2(ms/bucketBase))))
}

func bucketLabel(i int) string {
	v := bucketBase * math.Pow(2, float64(i))
	switch {
	case v < 1:
		return fmt.Sprintf("%.0fµs", v*1000)
	case v < 1000:
		return fmt.Sprintf("%.0fms", v)
	}
	return fmt.Sprintf("%.0fs", v/1000)
}

// latency is a histogram per player and decision kind of the recorded calls.
func latency(ms []*record.Match) []LatencyBlock {
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
	var out []LatencyBlock
	for _, p := range players {
		blk := LatencyBlock{Player: p}
		for _, k := range record.Kinds() {
			if len(by[p][k]) > 0 {
				blk.Kinds = append(blk.Kinds, kindHistogram(k, by[p][k]))
			}
		}
		out = append(out, blk)
	}
	return out
}

// kindHistogram is the histogram and percentiles of latencies ms (not
// empty).
func kindHistogram(kind string, ms []float64) KindHistogram {
	v := slices.Clone(ms)
	slices.Sort(v)
	return KindHistogram{Kind: kind, Count: len(v), P50: stats.Quantile(v, 0.5), P95: stats.Quantile(v, 0.95), P99: stats.Quantile(v, 0.99), Max: v[len(v)-1], SVG: histogramSVG(v)}
}

// histogramSVG draws latencies (sorted, ms) in doubling buckets.
func histogramSVG(v []float64) template.HTML {
	var counts [nBuckets]int
	lo, hi := nBuckets, 0
	for _, x := range v {
		b := bucketOf(x)
		counts[b]++
		lo, hi = min(lo, b), max(hi, b)
	}
	lo, hi = max(0, lo-1), min(nBuckets-1, hi+1)
	top := slices.Max(counts[:])
	const w, h, pad = 300.0, 120.0, 18.0
	nb := hi - lo + 1
	bw := (w - 2*pad) / float64(nb)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="hist" viewBox="0 0 %.0f %.0f" role="img" aria-label="latency histogram">`, w, h)
	for i := lo; i <= hi; i++ {
		bh := (h - 2*pad) * float64(counts[i]) / float64(top)
		x := pad + bw*float64(i-lo)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>≤ %s: %d</title></rect>`,
			x+1, h-pad-bh, bw-2, bh, bucketLabel(i), counts[i])
		if (i-lo)%2 == 0 {
			fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%.0f">%s</text>`, x, h-4, bucketLabel(i))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// The deal viewer's data: compact arrays, cards as two-character codes.
type viewerMatch struct {
	N       int          `json:"n"`
	Title   string       `json:"title"`
	Players [4]string    `json:"players"`
	Deals   []viewerDeal `json:"deals"`
}

type viewerDeal struct {
	N        int              `json:"n"`
	Dealer   int              `json:"dealer"`
	Score    [2]int           `json:"score"`
	Cut      string           `json:"cut"`
	Hands    [4][]record.Card `json:"hands"` // dealt order: five, then three after the bidding
	Bids     [][2]any         `json:"bids"`  // [seat, text]
	Contract string           `json:"contract"`
	Mode     int              `json:"mode"`
	Tricks   []viewerTrick    `json:"tricks"`
	Result   string           `json:"result"`
}

type viewerTrick struct {
	Leader int           `json:"leader"`
	Cards  []record.Card `json:"cards"`
	Winner int           `json:"winner"`
	Points int           `json:"points"`
}

func viewerData(ms []*record.Match, limit int) (template.JS, int, error) {
	if limit <= 0 {
		limit = 50
	}
	omitted := max(0, len(ms)-limit)
	var out []viewerMatch
	for _, m := range ms[:min(len(ms), limit)] {
		vm := viewerMatch{N: m.Header.Match, Title: m.Describe(), Players: m.Header.Players}
		for _, d := range m.Deals {
			if d.Cut == nil {
				continue // stopped before the hands were dealt
			}
			vd := viewerDeal{N: d.Deal, Dealer: int(d.Dealer), Score: d.Score, Hands: d.Cut.Hands, Mode: -1, Bids: [][2]any{}, Tricks: []viewerTrick{}}
			from := "bottom"
			if d.Cut.FromTop {
				from = "top"
			}
			vd.Cut = fmt.Sprintf("%s cut at %d from the %s", giretra.Position(d.Cut.Seat), d.Cut.Position, from)
			for _, b := range d.Bids {
				t := giretra.ActionType(b.Action).String()
				if b.Mode != nil {
					t += " " + giretra.Mode(*b.Mode).String()
				}
				vd.Bids = append(vd.Bids, [2]any{int(b.Seat), t})
			}
			if c := d.Contract; c != nil {
				vd.Mode = int(c.Mode)
				vd.Contract = fmt.Sprintf("%s %s by %s", giretra.Mode(c.Mode), giretra.Multiplier(c.Multiplier), giretra.Position(c.Announcer))
			}
			for _, t := range d.Tricks {
				vd.Tricks = append(vd.Tricks, viewerTrick{Leader: int(t.Leader), Cards: t.Cards, Winner: int(t.Winner), Points: t.Points})
			}
			if r := d.Result; r != nil {
				made := "failed"
				if r.Made() {
					made = "made"
				}
				vd.Result = fmt.Sprintf("card points %d–%d, contract %s; match points %d–%d; score %d–%d",
					r.CardPoints[0], r.CardPoints[1], made, r.MatchPoints[0], r.MatchPoints[1], r.Score[0], r.Score[1])
			}
			vm.Deals = append(vm.Deals, vd)
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
