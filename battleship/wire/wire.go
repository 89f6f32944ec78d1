// Package wire is the botsarena edge of the battleship bot: the arena's
// init and play-turn messages as the arena really sends them (board
// fields as strings or numbers, a history that may be a JSON string, no
// players or you in play-turn), their answers, and their decoding. Problems
// are reported in the edge's one error model (internal/problem). No HTTP
// here.
package wire

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/internal/jsonscan"
	"github.com/botarena/gamebot/internal/problem"
)

// Request is one decoded arena message. A board that cannot be read leaves
// BoardErr set (a Problem): the message itself was readable, and a turn
// still gets a legal answer.
type Request struct {
	Action      string // lower-cased: "init", "play-turn", or anything else
	Game        string
	GameID      string // opaque: the arena sends a number, other arenas a string
	PlayerIndex int
	Opponent    string
	Rules       battleship.Rules
	BoardErr    error
	Yours       []battleship.Strike // this bot's shots, chronological
	His         []battleship.Strike // the opponent's shots, chronological
}

// InitAnswer is the answer to "init".
type InitAnswer struct {
	Name  string   `json:"name"`
	Boats []string `json:"boats"`
}

// TurnAnswer is the answer to "play-turn".
type TurnAnswer struct {
	Play string `json:"play"`
}

// TurnError answers a play-turn whose board cannot be read: the problem and
// the always-legal shot "0,0" (every board has that cell; the arena ignores
// the status and only needs "play").
type TurnError struct {
	Error string `json:"error"`
	Play  string `json:"play"`
}

// Ignored answers a message with an action the bot does not know.
type Ignored struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

var docs = sync.Pool{New: func() any { return new(jsonscan.Doc) }}

// Decode reads one arena message. It fails (Malformed) only when the body
// is not one JSON object, or its board is neither an object nor absent;
// unreadable board fields are reported in Request.BoardErr.
func Decode(body []byte) (*Request, error) {
	d := docs.Get().(*jsonscan.Doc)
	defer docs.Put(d)
	if err := d.Parse(body); err != nil {
		return nil, err
	}
	root := d.Root()
	if root.Kind() != jsonscan.Object {
		return nil, problem.Malformedf("malformed JSON: the body must be a JSON object")
	}
	req := &Request{
		Action: strings.ToLower(strings.TrimSpace(text(root.Field("action")))),
		Game:   text(root.Field("game")),
		GameID: rawText(root.Field("game-id")),
	}
	if pi, err := readNumber(root.Field("player-index")); err == nil && (pi == 0 || pi == 1) {
		req.PlayerIndex = int(pi)
	}
	b := root.Field("board")
	if b.Missing() {
		req.BoardErr = problem.Malformedf("missing board")
		return req, nil
	}
	if b.Kind() != jsonscan.Object {
		return nil, jsonscan.TypeError("board", "an object", b)
	}
	req.Opponent = text(b.Field("opponent"))
	req.Rules, req.BoardErr = readRules(b)
	req.Yours = strikes(b.Field("your_strikes"))
	req.His = strikes(b.Field("his_strikes"))
	return req, nil
}

// text reads a string; any other value reads as "" (the arena's fields are
// strings, and an odd value must not cost the turn).
func text(v jsonscan.Value) string {
	b, _ := v.Bytes()
	return string(b)
}

// rawText is a string's content, or any other value's JSON text.
func rawText(v jsonscan.Value) string {
	if b, ok := v.Bytes(); ok {
		return string(b)
	}
	return string(bytes.TrimSpace(v.Raw()))
}

// strikes reads a history: an array, null, or a string holding an array
// (the arena documentation describes the history as a JSON string).
// Entries that are not objects are kept as strikes that say nothing, so
// that positions in the history stay right.
func strikes(v jsonscan.Value) []battleship.Strike {
	switch v.Kind() {
	case jsonscan.Array:
		out := make([]battleship.Strike, 0, v.Len())
		_ = v.Elems(func(_ int, e jsonscan.Value) error {
			out = append(out, strike(e))
			return nil
		})
		return out
	case jsonscan.String:
		s, _ := v.Bytes()
		inner := new(jsonscan.Doc)
		if inner.Parse(s) != nil || inner.Root().Kind() != jsonscan.Array {
			return []battleship.Strike{}
		}
		return strikes(inner.Root())
	case jsonscan.Absent, jsonscan.Null:
		return nil
	}
	return []battleship.Strike{}
}

func strike(e jsonscan.Value) battleship.Strike {
	if e.Kind() != jsonscan.Object {
		return battleship.Strike{}
	}
	target, _ := e.Field("target").Bytes()
	result, _ := e.Field("result").Bytes()
	x, y, ok := battleship.ParseTargetBytes(target)
	if !ok {
		x, y = 0, 0
	}
	return battleship.Strike{X: x, Y: y, OK: ok, Result: battleship.ParseResultBytes(result)}
}

func readRules(b jsonscan.Value) (battleship.Rules, error) {
	var r battleship.Rules
	w, err := readSide("width", b.Field("width"))
	if err != nil {
		return r, err
	}
	h, err := readSide("height", b.Field("height"))
	if err != nil {
		return r, err
	}
	r.W, r.H = w, h
	for l := 1; l <= battleship.MaxLen; l++ {
		name := "ship" + strconv.Itoa(l)
		raw := b.Field(name)
		if raw.Missing() {
			return r, problem.Malformedf("missing %s", name)
		}
		v, err := readNumber(raw)
		if err != nil {
			return r, problem.Malformedf("%s: %v", name, err)
		}
		if v != math.Trunc(v) || v < 0 || v > battleship.MaxPerKind {
			return r, problem.Impossiblef("%s = %v: a ship count must be an integer in 0..%d", name, v, battleship.MaxPerKind)
		}
		r.Fleet[l] = int(v)
	}
	return r, nil
}

// readSide reads a board side. The arena checks x < width numerically, so a
// non-integer width w allows columns 0..ceil(w)-1.
func readSide(name string, raw jsonscan.Value) (int, error) {
	if raw.Missing() {
		return 0, problem.Malformedf("missing %s", name)
	}
	v, err := readNumber(raw)
	if err != nil {
		return 0, problem.Malformedf("%s: %v", name, err)
	}
	if v <= 0 || v > battleship.MaxSide {
		return 0, problem.Impossiblef("%s = %v: must be in 1..%d", name, v, battleship.MaxSide)
	}
	return int(math.Ceil(v)), nil
}

// errNotNumber is readNumber's failure.
type errNotNumber string

func (e errNotNumber) Error() string { return string(e) }

// readNumber accepts a JSON number or a string holding a number the way
// PHP's is_numeric does (surrounding blanks, decimals, exponents).
func readNumber(v jsonscan.Value) (float64, error) {
	var s string
	switch v.Kind() {
	case jsonscan.Absent, jsonscan.Null:
		return 0, errNotNumber("missing")
	case jsonscan.String:
		b, _ := v.Bytes()
		s = strings.Trim(string(b), " \t\n\r\v\f")
	default:
		s = string(v.Raw())
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errNotNumber("not a number: " + strconv.Quote(truncate(s, 32)))
	}
	return f, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
