package table

import (
	"fmt"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
)

// View is what the page of a seat draws: the whole position (Othello
// hides nothing), the moves that seat may play, and the controls it may
// use.
type View struct {
	Mode string `json:"mode"`
	// Game names the game on the table: the mode, the start, the clocks.
	Game string `json:"game"`
	Size int    `json:"size"`
	// You is the viewer's colour (1 black, 2 white; 0: watching).
	You   int  `json:"you"`
	Watch bool `json:"watch"`
	// Controls: the viewer may pause, step and pace the match (the
	// creator of a watched match, until it is over).
	Controls bool `json:"controls"`
	// Play: the viewer plays here and the leg is not over (the move form).
	Play     bool      `json:"play"`
	Paused   bool      `json:"paused"`
	Speed    int64     `json:"speed"`
	Headline string    `json:"headline"`
	Legs     []LegView `json:"legs"`
	Over     bool      `json:"over"`
	Result   string    `json:"result"`
	// Again is the next game's setup, for the creator once it is over.
	Again *Options  `json:"again,omitempty"`
	Log   []LogLine `json:"log"`
}

// LogLine is a line of the table's log.
type LogLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// LegView is one board.
type LegView struct {
	Title   string        `json:"title"`
	Cells   string        `json:"cells"` // one character a square from a1, row by row: . x o #
	Turn    int           `json:"turn"`  // 1 black, 2 white, 0 over
	Last    string        `json:"last"`
	Pass    string        `json:"pass"`
	Legal   []string      `json:"legal"` // the viewer's moves, when the leg waits for them
	Players [2]PlayerView `json:"players"`
	Over    bool          `json:"over"`
	Result  string        `json:"result"`
}

// PlayerView is a side of a board.
type PlayerView struct {
	Name    string `json:"name"`
	Discs   int    `json:"discs"`
	ClockMs *int64 `json:"clock_ms"` // nil: untimed
	Running bool   `json:"running"`
}

// View implements table.Table.
func (t *Table) View(v table.Viewer) (int, any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.s
	view := View{Mode: s.mode.String(), Game: t.gameText(), Size: s.mode.Size(), Watch: s.watch,
		Paused: t.paused, Speed: t.pace.Milliseconds(), Over: t.allOver()}
	view.Controls = s.watch && v.Seat == table.Host && !view.Over
	if !v.Seat.Watching() {
		view.You, view.Play = int(v.Seat), !view.Over
	}
	for _, l := range t.log {
		view.Log = append(view.Log, LogLine{N: l.n, Text: l.text(v.Seat)})
	}
	var results []string
	for _, l := range t.legs {
		view.Legs = append(view.Legs, t.legView(l, v.Seat))
		if l.over {
			results = append(results, t.legPrefix(l)+l.resultFor(v.Seat))
		}
	}
	view.Headline = t.headline(v.Seat, view.Over)
	if view.Over {
		view.Result = strings.Join(results, " · ")
		if v.Seat == t.creator {
			view.Again = s.again()
		}
	}
	return t.seq, view
}

// legView draws leg l for seat. Called with t.mu held.
func (t *Table) legView(l *leg, seat table.Seat) LegView {
	size := t.s.mode.Size()
	lv := LegView{Title: t.legTitle(l, seat), Cells: l.st.Picture(), Pass: l.pass, Over: l.over, Legal: []string{}}
	if l.over {
		lv.Result = l.resultFor(seat)
	} else {
		lv.Turn = l.st.Turn
	}
	for i := len(l.rec.Moves) - 1; i >= 0; i-- {
		if m := l.rec.Moves[i].Move; m != "pass" {
			lv.Last = m
			break
		}
	}
	b, w := l.st.Discs()
	for c := range 2 {
		p := PlayerView{Name: l.seats[c].nameFor(seat), Discs: [2]int{b, w}[c]}
		if t.s.clock > 0 {
			left := l.left[c]
			running := !l.over && l.st.Turn == c+1
			if running {
				left -= time.Since(l.turnAt)
			}
			ms := max(left, 0).Milliseconds()
			p.ClockMs, p.Running = &ms, running
		}
		lv.Players[c] = p
	}
	if l.asked != nil && l.asked.seat == seat {
		lv.Legal = squareNames(l.st.LegalMoves(), size)
	}
	return lv
}

// headline is the line that says whose turn it is. Called with t.mu
// held.
func (t *Table) headline(seat table.Seat, over bool) string {
	switch {
	case over:
		return "Over."
	case t.askedOf(seat) != nil:
		return "Your move."
	case t.s.watch && t.paused:
		return "Paused."
	}
	for _, l := range t.legs {
		if s := l.seats[l.st.Turn-1]; !l.over && s.seat != 0 {
			return "Waiting for " + l.sideName(l.st.Turn, seat) + "…"
		}
	}
	return "Waiting for the engine…"
}

// gameText names the game: the mode, the start, the clocks.
func (t *Table) gameText() string {
	return fmt.Sprintf("%s — %s, from %s%s", t.s.mode, modeTitles[t.s.mode], startText(t.s.startAs), clockNote(t.s.clock))
}

// modeTitles say what each mode is.
var modeTitles = map[othello.Mode]string{
	othello.Std:     "8×8 Othello",
	othello.Anti:    "anti-Othello: fewer discs wins",
	othello.Grand:   "10×10 Othello",
	othello.Octagon: "10×10, 12 squares blocked",
	othello.Reversi: "classic Reversi: the centre first, 32 discs each",
}

func startText(s string) string {
	switch s {
	case record.StartXOT:
		return "an XOT-style opening"
	case record.StartRandom:
		return "FlipSight's random opening"
	}
	return "the initial position"
}

func clockNote(c time.Duration) string {
	if c == 0 {
		return ", no clocks"
	}
	return fmt.Sprintf(", %s a side", c)
}

func colourTitle(c int) string {
	if c == othello.Black {
		return "Black"
	}
	return "White"
}

// nameFor is the seat's name as viewer reads it: a person is "you" to
// themselves.
func (s *seat) nameFor(viewer table.Seat) string {
	switch {
	case s.seat == 0:
		return s.name
	case s.seat == viewer:
		return "you"
	case viewer.Watching():
		return "a person"
	}
	return "your friend"
}

// sideName is "Black (gamebot, level 3 (depth 4))" as viewer reads it.
func (l *leg) sideName(c int, viewer table.Seat) string {
	return colourTitle(c) + " (" + l.seats[c-1].nameFor(viewer) + ")"
}

// resultFor is how the leg ended, as viewer reads it. Called with t.mu
// held.
func (l *leg) resultFor(viewer table.Seat) string {
	r := l.rec.Result
	if r == nil {
		return ""
	}
	who := "a draw"
	switch r.Winner {
	case "black":
		who = l.sideName(othello.Black, viewer) + " won"
	case "white":
		who = l.sideName(othello.White, viewer) + " won"
	}
	s := fmt.Sprintf("%d–%d: %s", r.Black, r.White, who)
	if r.Reason != record.ReasonEnd {
		s += " (" + r.Reason + ")"
	}
	return s
}

func (t *Table) legPrefix(l *leg) string {
	if len(t.legs) == 1 {
		return ""
	}
	return fmt.Sprintf("Leg %d: ", l.no+1)
}

func (t *Table) legTitle(l *leg, viewer table.Seat) string {
	s := fmt.Sprintf("%s – %s", l.seats[0].nameFor(viewer), l.seats[1].nameFor(viewer))
	if len(t.legs) > 1 {
		s = fmt.Sprintf("Leg %d: %s", l.no+1, s)
	}
	return s
}

// Summary implements table.Table: the table as its creator reads it.
func (t *Table) Summary(*i18n.Printer) table.Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := table.Summary{Title: t.s.mode.String() + ": " + t.legTitle(t.legs[0], t.creator), Created: t.created, Over: t.allOver()}
	s.Review = s.Over || len(t.legs[0].rec.Moves) > 0
	if s.Over {
		var r []string
		for _, l := range t.legs {
			r = append(r, t.legPrefix(l)+l.resultFor(t.creator))
		}
		s.Status = "over: " + strings.Join(r, " · ")
	} else {
		s.Status = fmt.Sprintf("move %d", len(t.legs[0].rec.Moves)+1)
	}
	return s
}
