package htmlreport

import (
	"html/template"
	"io"
)

// The page kit a game's report package builds its page with.

// WritePage executes a page template, which uses layout.html.tmpl's
// "head" and "foot", on data: a struct with a Title and a Viewer (the
// viewer script's DATA). The page's style is base.css and css, its script
// js; tool names the command that made it.
func WritePage(w io.Writer, page, css, js, tool string, data any) error {
	return writePage(w, page, css, js, tool, data)
}

// Curve draws the running win rate after each game (results: 1 won, 0
// lost; noun names a game: "match", "game") with its Wilson 95% band and
// the 50% line.
func Curve(results []float64, noun string) template.HTML { return curveSVG(results, noun) }

// Histogram is the latency histogram and percentiles of one decision
// kind's calls (ms, not empty).
func Histogram(kind string, ms []float64) KindHistogram { return kindHistogram(kind, ms) }
