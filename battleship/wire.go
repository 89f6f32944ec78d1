package battleship

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Request is one decoded arena message. Board fields that the arena sends
// as JSON strings ("10") are accepted as strings or numbers; a board that
// cannot be read leaves BoardErr set (the turn still gets a legal answer).
type Request struct {
	Action      string // lower-cased: "init", "play-turn", or anything else
	Game        string
	GameID      string // opaque: the arena sends a number, other arenas a string
	PlayerIndex int
	Opponent    string
	Rules       Rules
	BoardErr    error
	Yours       []Strike // this bot's shots, chronological
	HisTargets  []Strike // the opponent's shots, chronological
}

type wireRequest struct {
	GameID      json.RawMessage `json:"game-id"`
	Game        lenientString   `json:"game"`
	Action      lenientString   `json:"action"`
	PlayerIndex json.RawMessage `json:"player-index"`
	Board       *wireBoard      `json:"board"`
}

type wireBoard struct {
	Opponent    lenientString   `json:"opponent"`
	Width       json.RawMessage `json:"width"`
	Height      json.RawMessage `json:"height"`
	Ship1       json.RawMessage `json:"ship1"`
	Ship2       json.RawMessage `json:"ship2"`
	Ship3       json.RawMessage `json:"ship3"`
	Ship4       json.RawMessage `json:"ship4"`
	Ship5       json.RawMessage `json:"ship5"`
	Ship6       json.RawMessage `json:"ship6"`
	YourStrikes wireStrikes     `json:"your_strikes"`
	HisStrikes  wireStrikes     `json:"his_strikes"`
}

// lenientString takes a JSON string; any other JSON value reads as "".
type lenientString string

func (s *lenientString) UnmarshalJSON(b []byte) error {
	var v string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
	}
	*s = lenientString(v)
	return nil
}

type wireStrike struct {
	Target lenientString `json:"target"`
	Result lenientString `json:"result"`
	ok     bool
}

// UnmarshalJSON skips entries that are not objects instead of failing the
// whole message.
func (w *wireStrike) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	type plain wireStrike
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return nil
	}
	*w = wireStrike(p)
	w.ok = true
	return nil
}

// wireStrikes holds a history; the common form (an array of plain
// objects) is parsed by a fast scanner, anything else by encoding/json.
type wireStrikes struct{ list []Strike }

// UnmarshalJSON accepts an array, null, or a string holding an array (the
// arena documentation describes the history as a JSON string).
func (w *wireStrikes) UnmarshalJSON(b []byte) error {
	if list, ok := parseStrikesFast(b); ok {
		w.list = list
		return nil
	}
	b = bytes.TrimSpace(b)
	var list []wireStrike
	switch {
	case len(b) == 0 || b[0] == 'n':
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if json.Unmarshal([]byte(s), &list) != nil {
			list = nil
		}
	case b[0] == '[':
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
	}
	w.list = strikes(list)
	return nil
}

// DecodeRequest reads one arena message. It fails (Malformed) only when the
// body is not a single JSON object; unreadable board fields are reported in
// Request.BoardErr.
func DecodeRequest(body []byte) (*Request, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, malformed("empty request body: a JSON object is required")
	}
	if body[0] != '{' {
		return nil, malformed("malformed JSON: the body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var w wireRequest
	if err := dec.Decode(&w); err != nil {
		return nil, malformed("malformed JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, malformed("malformed JSON: trailing data after the JSON object")
	}
	req := &Request{
		Action: strings.ToLower(strings.TrimSpace(string(w.Action))),
		Game:   string(w.Game),
		GameID: rawText(w.GameID),
	}
	if pi, err := readNumber(w.PlayerIndex); err == nil && (pi == 0 || pi == 1) {
		req.PlayerIndex = int(pi)
	}
	if w.Board == nil {
		req.BoardErr = malformed("missing board")
		return req, nil
	}
	b := w.Board
	req.Opponent = string(b.Opponent)
	req.Rules, req.BoardErr = readRules(b)
	req.Yours = b.YourStrikes.list
	req.HisTargets = b.HisStrikes.list
	return req, nil
}

func rawText(b json.RawMessage) string {
	var s string
	if len(b) > 0 && b[0] == '"' && json.Unmarshal(b, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(b))
}

func strikes(ws []wireStrike) []Strike {
	out := make([]Strike, len(ws))
	for i, w := range ws {
		if !w.ok {
			continue
		}
		x, y, ok := ParseTarget(string(w.Target))
		out[i] = Strike{X: x, Y: y, OK: ok, Result: ParseResult(string(w.Result))}
	}
	return out
}

func readRules(b *wireBoard) (Rules, error) {
	var r Rules
	w, err := readSide("width", b.Width)
	if err != nil {
		return r, err
	}
	h, err := readSide("height", b.Height)
	if err != nil {
		return r, err
	}
	r.W, r.H = w, h
	for l, raw := range [...]json.RawMessage{b.Ship1, b.Ship2, b.Ship3, b.Ship4, b.Ship5, b.Ship6} {
		name := "ship" + strconv.Itoa(l+1)
		if len(raw) == 0 || string(raw) == "null" {
			return r, malformed("missing %s", name)
		}
		v, err := readNumber(raw)
		if err != nil {
			return r, malformed("%s: %v", name, err)
		}
		if v != math.Trunc(v) || v < 0 || v > MaxPerKind {
			return r, impossible("%s = %v: a ship count must be an integer in 0..%d", name, v, MaxPerKind)
		}
		r.Fleet[l+1] = int(v)
	}
	return r, nil
}

// readSide reads a board side. The arena checks x < width numerically, so a
// non-integer width w allows columns 0..ceil(w)-1.
func readSide(name string, raw json.RawMessage) (int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, malformed("missing %s", name)
	}
	v, err := readNumber(raw)
	if err != nil {
		return 0, malformed("%s: %v", name, err)
	}
	if v <= 0 || v > MaxSide {
		return 0, impossible("%s = %v: must be in 1..%d", name, v, MaxSide)
	}
	return int(math.Ceil(v)), nil
}

// readNumber accepts a JSON number or a string holding a number the way
// PHP's is_numeric does (surrounding blanks, decimals, exponents).
func readNumber(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, errors.New("missing")
	}
	s := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
		s = strings.Trim(s, " \t\n\r\v\f")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("not a number: " + strconv.Quote(truncate(s, 32)))
	}
	return v, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
