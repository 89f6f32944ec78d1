package referee

import (
	"fmt"
	"io"
	"strings"

	"github.com/botarena/gamebot/battleship/record"
)

// show: a recorded duel game in the terminal.

// ShowDuel prints the game: header, the shots round by round, the end and
// both boards as they ended.
func ShowDuel(w io.Writer, d *record.Duel) {
	h := &d.Header
	fmt.Fprintln(w, d.Describe())
	f := h.Fleet
	fmt.Fprintf(w, "  %s, seed %d, board %dx%d, ships %d,%d,%d,%d,%d,%d; %s shoots first; subject %s\n",
		h.Command, h.Seed, h.Width, h.Height, f[0], f[1], f[2], f[3], f[4], f[5], h.Players[0], h.Players[h.SubjectSeat])
	var bySeat [2][]record.Shot
	for _, s := range d.Shots {
		bySeat[s.Seat] = append(bySeat[s.Seat], s)
	}
	if len(d.Shots) > 0 {
		fmt.Fprintf(w, "\n  %5s  %-26s %s\n", "round", h.Players[0], h.Players[1])
		for k := range max(len(bySeat[0]), len(bySeat[1])) {
			var cols [2]string
			for i := range 2 {
				if k < len(bySeat[i]) {
					cols[i] = shotText(d, bySeat[i][k])
				}
			}
			fmt.Fprintf(w, "  %5d  %-26s %s\n", k+1, cols[0], cols[1])
		}
	}
	fmt.Fprintln(w)
	switch e := d.End; {
	case e == nil:
		fmt.Fprintln(w, "(the record has no end line: the run was cut short)")
	case e.Winner != nil:
		fmt.Fprintf(w, "%s won with %d shots (%s fired %d)\n", h.Players[*e.Winner], e.Shots[*e.Winner], h.Players[1-*e.Winner], e.Shots[1-*e.Winner])
		if e.Invalid != "" {
			fmt.Fprintf(w, "INVALID: %s lost by %s\n", h.Players[1-*e.Winner], e.Invalid)
		}
	case e.Error != "":
		fmt.Fprintf(w, "STOPPED: %s\n", e.Error)
	}
	if d.Fleets[0] == nil && d.Fleets[1] == nil {
		return
	}
	fmt.Fprintf(w, "\nboards at the end (# ship, X hit, * sunk, o miss, . water)\n")
	var boards [2][]string
	for i := range 2 {
		boards[i] = boardText(d, i)
	}
	titles := [2]string{h.Players[0] + "'s fleet", h.Players[1] + "'s fleet"}
	width := max(h.Width+4, len(titles[0])) + 4
	fmt.Fprintf(w, "  %-*s%s\n", width, titles[0], titles[1])
	for r := range boards[0] {
		fmt.Fprintf(w, "  %-*s%s\n", width, boards[0][r], boards[1][r])
	}
}

// shotText is "3,4 miss", "2,2 hit", "2,3 SUNK 3" (the sunk ship's
// length), with the latency of an HTTP call.
func shotText(d *record.Duel, s record.Shot) string {
	t := fmt.Sprintf("%d,%d", s.Cell[0], s.Cell[1])
	if s.Target != "" {
		t = fmt.Sprintf("%q", s.Target)
	}
	switch s.Result {
	case record.ResultSunk:
		t += fmt.Sprintf(" SUNK %d", d.Fleets[1-s.Seat][s.Ship].L)
	default:
		t += " " + s.Result
	}
	if s.MS > 0 {
		t += fmt.Sprintf(" %.1fms", s.MS)
	}
	return t
}

// boardText draws seat's board as it ended: its fleet and the other
// seat's shots at it, a header row of column numbers (units digit) and a
// row number on each line.
func boardText(d *record.Duel, seat int) []string {
	h := &d.Header
	grid := make([][]byte, h.Height)
	for y := range grid {
		grid[y] = []byte(strings.Repeat(".", h.Width))
	}
	sunk := map[int]bool{}
	for _, s := range d.Shots {
		if s.Seat != seat && s.Result == record.ResultSunk {
			sunk[s.Ship] = true
		}
	}
	for i, ship := range d.Fleets[seat] {
		for _, c := range record.ShipCells(ship) {
			grid[c[1]][c[0]] = '#'
			if sunk[i] {
				grid[c[1]][c[0]] = '*'
			}
		}
	}
	for _, s := range d.Shots {
		if s.Seat == seat {
			continue
		}
		c := &grid[s.Cell[1]][s.Cell[0]]
		switch {
		case s.Ship >= 0 && *c == '#':
			*c = 'X'
		case s.Ship < 0 && *c == '.':
			*c = 'o'
		}
	}
	var cols strings.Builder
	for x := range h.Width {
		cols.WriteByte(byte('0' + x%10))
	}
	out := []string{"    " + cols.String()}
	for y, row := range grid {
		out = append(out, fmt.Sprintf("%3d %s", y, row))
	}
	return out
}
