package table

import (
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/table"
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
	s, r := t.s, readerOf(v)
	view := View{Mode: s.mode.String(), Game: t.gameText(r), Size: s.mode.Size(), Watch: s.watch,
		Paused: t.paused, Speed: t.pace.Milliseconds(), Over: t.allOver()}
	view.Controls = s.watch && v.Seat == table.Host && !view.Over
	if !v.Seat.Watching() {
		view.You, view.Play = int(v.Seat), !view.Over
	}
	for _, l := range t.log {
		view.Log = append(view.Log, LogLine{N: l.n, Text: l.text(r)})
	}
	var results []string
	for _, l := range t.legs {
		view.Legs = append(view.Legs, t.legView(l, r))
		if l.over {
			results = append(results, t.ofLeg(l, r, l.resultFor(r)))
		}
	}
	view.Headline = t.headline(r, view.Over)
	if view.Over {
		view.Result = strings.Join(results, " · ")
		if v.Seat == t.creator {
			view.Again = s.again()
		}
	}
	return t.seq, view
}

// legView draws leg l for r. Called with t.mu held.
func (t *Table) legView(l *leg, r reader) LegView {
	size := t.s.mode.Size()
	lv := LegView{Title: t.legTitle(l, r), Cells: l.st.Picture(), Over: l.over, Legal: []string{}}
	if l.passed != 0 {
		lv.Pass = r.T("passes", r.Side(l.passed))
	}
	if l.over {
		lv.Result = l.resultFor(r)
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
		p := PlayerView{Name: l.seats[c].nameFor(r), Discs: [2]int{b, w}[c]}
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
	if l.asked != nil && l.asked.seat == r.seat {
		lv.Legal = squareNames(l.st.LegalMoves(), size)
	}
	return lv
}

// headline is the line that says whose turn it is. Called with t.mu
// held.
func (t *Table) headline(r reader, over bool) string {
	switch {
	case over:
		return r.T("headline.over")
	case t.askedOf(r.seat) != nil:
		return r.T("headline.you")
	case t.s.watch && t.paused:
		return r.T("headline.paused")
	}
	for _, l := range t.legs {
		if s := l.seats[l.st.Turn-1]; !l.over && s.seat != 0 {
			return r.T("headline.waitFor", l.sideName(l.st.Turn, r))
		}
	}
	return r.T("headline.engine")
}

// gameText names the game: the mode, what it is, the start, the clocks.
func (t *Table) gameText(r reader) string {
	s := t.s
	return r.T("game", s.mode.String(), r.About(s.mode), r.Start(s.startAs), r.Clock(s.clock))
}

// Summary implements table.Table: the table as its creator reads it, in
// p's language.
func (t *Table) Summary(p *i18n.Printer) table.Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.creatorReader(p)
	s := table.Summary{Title: r.T("lobby.title", r.Mode(t.s.mode), t.legTitle(t.legs[0], r)), Created: t.created, Over: t.allOver()}
	s.Review = s.Over || len(t.legs[0].rec.Moves) > 0
	if s.Over {
		var res []string
		for _, l := range t.legs {
			res = append(res, t.ofLeg(l, r, l.resultFor(r)))
		}
		s.Status = r.T("lobby.over", strings.Join(res, " · "))
	} else {
		s.Status = r.T("lobby.move", len(t.legs[0].rec.Moves)+1)
	}
	return s
}
