// Package htmlreport is the kit a game's report package builds its page
// with: one self-contained HTML page (inline CSS, JavaScript and SVG,
// nothing fetched from the network) on the scaffolding of
// layout.html.tmpl and base.css, the win-rate curve and the latency
// histograms. It knows no game: giretra/report, battleship/report and
// othello/report add their template, style and viewer script.
package htmlreport

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/stats"
)

//go:embed layout.html.tmpl
var layoutTemplate string

//go:embed base.css
var baseCSS string

// KindHistogram is one decision kind's latency histogram.
type KindHistogram struct {
	Kind               string
	Count              int
	P50, P95, P99, Max float64
	SVG                template.HTML
}

// LatencyBlock is one player's latency histograms, one per decision kind.
type LatencyBlock struct {
	Player string
	Kinds  []KindHistogram
}

// GameRow is one match (or game) in the list.
type GameRow struct {
	Match  int
	Text   string
	Result string // won, lost, stopped
}

//go:embed i18n
var catalogues embed.FS

func init() { i18n.Register("report", catalogues, "i18n") }

// WritePage executes a page template, which uses layout.html.tmpl's
// "head" and "foot", on data: a struct with a Title and a Viewer (the
// viewer script's DATA). The page's style is base.css and css, its
// script js; tool names the command that made it. It speaks English.
func WritePage(w io.Writer, page, css, js, tool string, data any) error {
	return Page{Template: page, CSS: css, JS: js, Tool: tool}.Write(w, data)
}

// Page is a report page: its template (using layout.html.tmpl's "head"
// and "foot"), its style (after base.css) and script, the command named
// as its maker, and its language: P's (nil: English), in which t writes
// a catalogue's text and the script reads Texts as TEXTS.
type Page struct {
	Template, CSS, JS, Tool string
	P                       *i18n.Printer
	Texts                   map[string]string
}

// Write executes the page on data (a struct with a Title and a Viewer).
func (pg Page) Write(w io.Writer, data any) error {
	texts, err := json.Marshal(pg.Texts) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	funcs := template.FuncMap{
		"pct":   func(f float64) float64 { return 100 * f },
		"css":   func() template.CSS { return template.CSS(baseCSS + pg.CSS) },
		"js":    func() template.JS { return template.JS(pg.JS) },
		"tool":  func() string { return pg.Tool },
		"lang":  func() string { return string(pg.P.Lang()) },
		"t":     pg.P.T,
		"texts": func() template.JS { return template.JS(texts) },
	}
	page := pg.Template
	t, err := template.New("layout").Funcs(funcs).Parse(layoutTemplate)
	if err == nil {
		t, err = t.New("page").Parse(page)
	}
	if err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "page", data)
}

// Curve draws the running win rate after each game (results: 1 won, 0
// lost; noun names a game: "match", "game") with its Wilson 95% band and
// the 50% line.
func Curve(results []float64, noun string) template.HTML {
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

// Histogram is the latency histogram and percentiles of one decision
// kind's calls (ms, not empty).
func Histogram(kind string, ms []float64) KindHistogram {
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
