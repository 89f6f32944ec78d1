package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/botarena/gamebot/giretra/referee"
)

// progressBar draws a one-line bar of a run's matches.
type progressBar struct {
	w    io.Writer
	done int
}

// draw is the runs' Progress: the referee calls it one match at a time.
func (b *progressBar) draw(p referee.Progress) {
	const width = 30
	b.done = p.Done
	n := min(width, p.Done*width/max(1, p.Total))
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d  first bot won %d  errors %d ", strings.Repeat("#", n), strings.Repeat(".", width-n), p.Done, p.Total, p.FirstWins, p.Errors)
}

// finish ends the bar's line (a nil bar: none was drawn).
func (b *progressBar) finish() {
	if b != nil && b.done > 0 {
		fmt.Fprintln(b.w)
	}
}
