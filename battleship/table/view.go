package table

import (
	"github.com/botarena/gamebot/battleship"
	tables "github.com/botarena/gamebot/internal/table"
)

// View is what the person's seat sees: their own fleet, every shot and
// its result as the arena answers it, and the bot's fleet only once the
// game is over. Nothing else about the bot's fleet is in it: not which
// ship a "hit and sunk" sank, not how many cells are left.
type View struct {
	Phase string `json:"phase"` // place, wait, play, over
	W     int    `json:"w"`
	H     int    `json:"h"`
	// Fleet counts the ships by length 1..6.
	Fleet [battleship.MaxLen]int `json:"fleet"`
	// Seat is the person's (0 shoots first).
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Bot    string `json:"bot"`    // the bot's name: gamebot, or its URL
	Remote bool   `json:"remote"` // a bot server, called as the arena calls it
	Turn   string `json:"turn"`   // "you" or "bot" while playing, else ""
	Pace   int    `json:"pace_ms"`
	// Left lists the lengths still to place, longest first.
	Left []int `json:"left"`
	// Mine is the person's fleet (as placed so far while placing).
	Mine []ShipView `json:"mine"`
	// AtMe are the bot's shots at the person's fleet, AtBot the person's
	// at the bot's, in the order fired.
	AtMe  []Shot `json:"at_me"`
	AtBot []Shot `json:"at_bot"`
	// Ships is the number of ships in each fleet; SunkByYou and SunkByBot
	// count the "hit and sunk" answers each side got.
	Ships     int `json:"ships"`
	SunkByYou int `json:"sunk_by_you"`
	SunkByBot int `json:"sunk_by_bot"`
	// BotShips is the bot's fleet, once the game is over.
	BotShips []ShipView `json:"bot_ships,omitempty"`
	Result   *Result    `json:"result,omitempty"`
	// Explain is the map behind one of the bot's shots, once the game is
	// over (our bot only).
	Explain *Explain `json:"explain,omitempty"`
	// Again is the setup of a game like this one (the same board, fleet,
	// opponent and seats, a new seed), once the game is over, for the
	// person to play again.
	Again *Options  `json:"again,omitempty"`
	Log   []logLine `json:"log"`
}

// ShipView is a ship: its first cell, its length, down or across.
type ShipView struct {
	X        int  `json:"x"`
	Y        int  `json:"y"`
	Len      int  `json:"len"`
	Vertical bool `json:"vertical"`
}

// Shot is a shot and the arena's answer: miss, hit or sunk. Target is
// the shot as sent when it is not the canonical "x,y" (a bot server's
// "04,2" is recorded as it is and never hits).
type Shot struct {
	X      int    `json:"x"`
	Y      int    `json:"y"`
	R      string `json:"r"`
	Target string `json:"target,omitempty"`
}

// Result is how the game ended.
type Result struct {
	Won bool `json:"won"`
	// Why says it in the reader's language: what ended the game, who
	// wins, the shots each side fired.
	Why string `json:"why"`
	// Shots fired: the person's, the bot's.
	Shots [2]int `json:"shots"`
}

// Explain is the map behind one of the bot's shots (battleship.ShotMap):
// Map is base64, a byte a cell (y*w+x), 255 standing for Top.
type Explain struct {
	Shot int     `json:"shot"` // the bot's shot, from 0
	Of   int     `json:"of"`   // the bot's shots
	X    int     `json:"x"`
	Y    int     `json:"y"`
	R    string  `json:"r"`
	Map  []byte  `json:"map"` // null: not kept (the table's budget)
	Top  float64 `json:"top"`
	Best float64 `json:"best"`
	// P is the value of the cell shot (exact; Map is rounded).
	P            float64 `json:"p"`
	Hunting      bool    `json:"hunting"`
	Spread       float64 `json:"spread"`
	Fallback     bool    `json:"fallback"`
	Explanations int     `json:"explanations"`
}

var resultWord = map[string]string{battleship.ResultMiss: "miss", battleship.ResultHit: "hit", battleship.ResultSunk: "sunk", battleship.ResultWin: "sunk"}

// View is the person's view at its version, its texts in the viewer's
// language. A watcher sees what the person sees (their own fleet, every
// shot, the bot's fleet only once the game is over), the texts naming
// the person, and may do nothing.
func (g *game) View(viewer tables.Viewer) (int, any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rd := readerOf(viewer)
	r, you, bot := g.s.r, g.s.you, g.bot()
	v := View{Phase: g.phase, W: r.W, H: r.H, Seat: you, Name: g.s.name, Bot: g.opp.label(), Remote: g.opp.remote(),
		Pace: int(g.s.pace.Milliseconds()), Left: g.left(), Ships: r.Fleet.Ships(), AtMe: []Shot{}, AtBot: []Shot{}}
	copy(v.Fleet[:], r.Fleet[1:])
	mine := g.placed
	if g.fleets[you] != nil {
		mine = g.fleets[you]
	}
	v.Mine = shipViews(mine)
	for _, f := range g.fired {
		s := Shot{X: f.x, Y: f.y, R: resultWord[f.result]}
		if f.target != battleship.FormatTarget(f.x, f.y) {
			s.Target = f.target
		}
		if f.seat == you {
			v.AtBot = append(v.AtBot, s)
			if s.R == "sunk" {
				v.SunkByYou++
			}
		} else {
			v.AtMe = append(v.AtMe, s)
			if s.R == "sunk" {
				v.SunkByBot++
			}
		}
	}
	if g.phase == phasePlay {
		v.Turn = "bot"
		if g.turn() == you {
			v.Turn = "you"
		}
	}
	if g.phase == phaseOver {
		// The game reveals the bot's fleet (if it placed one).
		v.BotShips = shipViews(g.fleets[bot])
		v.Result = &Result{Won: g.winner == you, Why: g.outcome(rd), Shots: [2]int{g.shots[you], g.shots[bot]}}
		if len(g.maps) > 0 {
			v.Explain = g.explainView()
		}
		if !viewer.Seat.Watching() {
			v.Again = g.s.again()
		}
	}
	v.Log = g.logView(rd)
	return g.seq, v
}

// Valid implements table.Scripted: the game-moving actions the person may
// send now, as Act takes them (placing ship by ship, the bot's placement
// and the map controls are left out: random and start cover the placing).
func (g *game) Valid(seat tables.Seat) []any {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := []any{}
	if seat.Watching() {
		return out
	}
	switch {
	case g.phase == phasePlace && len(g.left()) == 0:
		out = append(out, map[string]string{"type": "start"})
	case g.phase == phasePlace:
		out = append(out, map[string]string{"type": "random"})
	case g.phase == phasePlay && g.turn() == g.s.you:
		shot := map[[2]int]bool{}
		for _, f := range g.fired {
			if f.seat == g.s.you {
				shot[[2]int{f.x, f.y}] = true
			}
		}
		for y := range g.s.r.H {
			for x := range g.s.r.W {
				if !shot[[2]int{x, y}] {
					out = append(out, map[string]any{"type": "shoot", "x": x, "y": y})
				}
			}
		}
	}
	return out
}

func shipViews(ships []battleship.Ship) []ShipView {
	out := make([]ShipView, len(ships))
	for i, s := range ships {
		out[i] = ShipView{X: s.X, Y: s.Y, Len: s.L, Vertical: s.Vertical}
	}
	return out
}

// explainView is the map of the bot's shot g.shown (the caller holds the
// lock).
func (g *game) explainView() *Explain {
	k := min(g.shown, len(g.maps)-1)
	sm := g.maps[k]
	m := sm.m
	e := &Explain{Shot: k, Of: len(g.maps), X: m.X, Y: m.Y, Map: sm.q, Top: sm.top, Best: m.Best,
		Hunting: m.Hunting, Spread: m.Spread, Fallback: m.Fallback, Explanations: m.Explanations}
	n := 0
	for _, f := range g.fired {
		if f.seat != g.bot() {
			continue
		}
		if n == k {
			e.R = resultWord[f.result]
			break
		}
		n++
	}
	e.P = sm.p
	return e
}
