// Package record is the Othello game record: one leg a JSON line — the
// mode, the start (the moves that made it), the players, every move with
// the time it took, the clock after it and, for an engine's move, the
// engine's score and depth — and its result. A FlipSight match is two
// legs with the same match id. The browser table, othello-match and the
// viewer (othello/report) write and read it; Read replays every leg
// under the mode's rules, so a record that reads is a game that was
// legal.
package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/botarena/gamebot/internal/jsonl"
	"github.com/botarena/gamebot/othello"
)

// Version is the format's version, written in every leg.
const Version = 1

// Start names where a leg began.
const (
	StartInitial = "initial" // the mode's initial position
	StartXOT     = "xot"     // a balanced 8-move std opening from the XOT-style list
	StartRandom  = "random"  // FlipSight's random opening: 8 random moves (reversi: 12 placements)
)

// Leg is one game.
type Leg struct {
	Version int    `json:"version"`
	Mode    string `json:"mode"`
	Start   string `json:"start"`
	// Opening are the moves from the mode's initial position that made
	// the start (none for StartInitial). They are not the players'.
	Opening []string `json:"opening"`
	// Players are black's and white's.
	Players [2]Player `json:"players"`
	// ClockMs is each side's clock at the start (0: untimed).
	ClockMs int64     `json:"clock_ms,omitempty"`
	Match   string    `json:"match,omitempty"` // the two legs of a match share it
	LegNo   int       `json:"leg,omitempty"`   // 0 or 1
	Started time.Time `json:"started"`
	Moves   []Move    `json:"moves"`
	Result  *Result   `json:"result,omitempty"` // nil: not finished
}

// Player is one side.
type Player struct {
	Name string `json:"name"`
	// Kind: "person", "engine" (ours, in process), "command" (a JSON-line
	// engine), "nboard" (an NBoard engine).
	Kind string `json:"kind"`
}

// Move is one ply: a square ("d3") or "pass".
type Move struct {
	Move        string   `json:"move"`
	Ms          int64    `json:"ms"`                     // time it took
	RemainingMs *int64   `json:"remaining_ms,omitempty"` // the mover's clock after it
	Score       *float64 `json:"score,omitempty"`        // the engine's score, discs for the mover
	Depth       int      `json:"depth,omitempty"`        // the engine's completed depth
	Exact       bool     `json:"exact,omitempty"`        // the score is proven
}

// Result is how a leg ended.
type Result struct {
	Black  int    `json:"black"`  // discs on the final board
	White  int    `json:"white"`  //
	Winner string `json:"winner"` // "black", "white" or "draw", by the mode's scoring or the adjudication
	// Reason: "end" (neither side can move), "timeout", "illegal" (the
	// loser answered a move the rules forbid), "failed" (the loser's
	// engine crashed or answered no move), "resigned", "abandoned" (the
	// table closed first).
	Reason string `json:"reason"`
}

// Reasons a leg ends.
const (
	ReasonEnd       = "end"
	ReasonTimeout   = "timeout"
	ReasonIllegal   = "illegal"
	ReasonFailed    = "failed"
	ReasonResigned  = "resigned"
	ReasonAbandoned = "abandoned"
)

// Replay is a leg's positions: States[i] is the position before Moves[i]
// (States[len(Moves)] the last one), the start included.
type Replay struct {
	Mode    othello.Mode
	States  []*othello.State
	Squares []int // each move's square (othello.Pass for a pass)
}

// Check replays the leg: the mode exists, the opening and every move are
// legal in turn, passes only where the mover has no move, and a result
// of "end" only when neither side can move, with the discs it states.
func (l *Leg) Check() (*Replay, error) {
	if l.Version != Version {
		return nil, fmt.Errorf("version %d: want %d", l.Version, Version)
	}
	mode, err := othello.ParseMode(l.Mode)
	if err != nil {
		return nil, err
	}
	switch l.Start {
	case StartInitial, StartXOT, StartRandom:
	default:
		return nil, fmt.Errorf("start %q: want initial, xot or random", l.Start)
	}
	if l.Start == StartInitial && len(l.Opening) > 0 || l.Start != StartInitial && len(l.Opening) == 0 {
		return nil, fmt.Errorf("start %s with %d opening moves", l.Start, len(l.Opening))
	}
	if l.ClockMs < 0 || l.LegNo < 0 || l.LegNo > 1 || len(l.Moves) > 2*mode.Squares()+4 {
		return nil, errors.New("clock, leg number or move count out of range")
	}
	st := othello.NewState(mode)
	size := mode.Size()
	for i, m := range l.Opening {
		sq, err := othello.ParseMove(m, size)
		if err != nil || sq == othello.Pass || othello.SquareName(sq, size) != m {
			return nil, fmt.Errorf("opening move %d %q: not a square as SquareName writes it", i+1, m)
		}
		if err := st.Play(sq); err != nil {
			return nil, fmt.Errorf("opening move %d: %w", i+1, err)
		}
	}
	r := &Replay{Mode: mode, States: []*othello.State{st.Clone()}}
	for i, m := range l.Moves {
		sq, err := othello.ParseMove(m.Move, size)
		if err != nil || MoveName(sq, size) != m.Move {
			return nil, fmt.Errorf("move %d %q: want a square as SquareName writes it, or pass", i+1, m.Move)
		}
		if m.Ms < 0 || m.RemainingMs != nil && *m.RemainingMs < 0 || m.Depth < 0 || m.Depth > 200 ||
			m.Score != nil && (math.IsNaN(*m.Score) || math.Abs(*m.Score) > float64(mode.Squares())) {
			return nil, fmt.Errorf("move %d: time, clock, depth or score out of range", i+1)
		}
		if err := st.Play(sq); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		r.Squares = append(r.Squares, sq)
		r.States = append(r.States, st.Clone())
	}
	if res := l.Result; res != nil {
		switch res.Reason {
		case ReasonEnd, ReasonTimeout, ReasonIllegal, ReasonFailed, ReasonResigned, ReasonAbandoned:
		default:
			return nil, fmt.Errorf("result reason %q", res.Reason)
		}
		switch res.Winner {
		case "black", "white", "draw":
		default:
			return nil, fmt.Errorf("result winner %q", res.Winner)
		}
		b, w := st.Discs()
		if res.Black != b || res.White != w {
			return nil, fmt.Errorf("result %d–%d, the board has %d–%d", res.Black, res.White, b, w)
		}
		if res.Reason == ReasonEnd {
			if !st.Over() {
				return nil, errors.New(`result "end" before the game is over`)
			}
			if want := WinnerName(st.Winner()); res.Winner != want {
				return nil, fmt.Errorf("result winner %s, the board says %s", res.Winner, want)
			}
		}
	}
	return r, nil
}

// MoveName is a move as a record writes it: the square's name, or "pass".
func MoveName(sq, size int) string {
	if sq == othello.Pass {
		return "pass"
	}
	return othello.SquareName(sq, size)
}

// WinnerName is a colour's name in a Result (0: "draw").
func WinnerName(colour int) string {
	switch colour {
	case othello.Black:
		return "black"
	case othello.White:
		return "white"
	}
	return "draw"
}

// Append writes the leg as one JSON line.
func Append(w io.Writer, l *Leg) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Read reads legs, one a JSON line (internal/jsonl: blank lines
// skipped), each checked by Check; it stops at the first bad one, naming
// its line. A record holds at least one leg.
func Read(r io.Reader) ([]Leg, error) {
	var out []Leg
	err := jsonl.Scan(r, func(n int, _ string, b []byte) error {
		var l Leg
		if err := jsonl.Strict(b, &l); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if _, err := l.Check(); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		out = append(out, l)
		return nil
	})
	if err == nil && len(out) == 0 {
		err = errors.New("no leg in the record")
	}
	return out, err
}

// Transcript is the leg's moves as one string of coordinates ("f5d6c3…",
// passes left out), the form Othello programs paste and read; the
// opening is included, since the moves mean nothing without it.
func (l *Leg) Transcript() string {
	var b bytes.Buffer
	for _, m := range l.Opening {
		b.WriteString(m)
	}
	for _, m := range l.Moves {
		if m.Move != "pass" {
			b.WriteString(m.Move)
		}
	}
	return b.String()
}

// ReadPaths reads the legs of record files and of folders of them (their
// *.jsonl files in name order), in the order given.
func ReadPaths(paths ...string) ([]Leg, error) {
	var legs []Leg
	for _, a := range paths {
		var files [][]Leg
		var err error
		if fi, serr := os.Stat(a); serr == nil && fi.IsDir() {
			files, err = jsonl.ReadDir(a, ReadFile)
		} else {
			var l []Leg
			l, err = ReadFile(a)
			files = [][]Leg{l}
		}
		if err != nil {
			return nil, err
		}
		for _, l := range files {
			legs = append(legs, l...)
		}
	}
	return legs, nil
}

// ReadFile reads the legs of the record file at path.
func ReadFile(path string) ([]Leg, error) { return jsonl.ReadFile(path, Read) }
