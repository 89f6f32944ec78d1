package flipsight

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The agent API is served by PHP, and its documentation types several
// fields loosely ("[number, number]", ids that are integers in one table
// and owner ids that are strings next to them). A connector that decodes
// with Go's exact types stops playing the first time the server sends
// 59638.25 for a clock or "123" for an id. These types read what a real
// server may send for a field the connector relies on: a JSON number
// (integer or not), a string holding one, or null (zero).

// Int is an integer field: 12, 12.0, "12" and null (0) all decode. A
// fractional value is truncated toward zero.
type Int int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Int) UnmarshalJSON(b []byte) error {
	f, err := lenientNumber(b)
	if err != nil {
		return err
	}
	if f > math.MaxInt64 || f < math.MinInt64 {
		return fmt.Errorf("number %s out of range", b)
	}
	*n = Int(f)
	return nil
}

// Float is a real-valued field (clocks): numbers, numeric strings, null.
type Float float64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Float) UnmarshalJSON(b []byte) error {
	f, err := lenientNumber(b)
	*n = Float(f)
	return err
}

// lenientNumber reads a JSON number, a string holding one, or null.
func lenientNumber(b []byte) (float64, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return 0, nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, err
		}
		s = string(bytes.TrimSpace([]byte(s)))
		if s == "" {
			return 0, nil
		}
		b = []byte(s)
	}
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return float64(i), nil // exact for every id the platform hands out
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%.40s is not a number", b)
	}
	return f, nil
}

// Ints is a list of integers (board, legal_moves, discs). null decodes as
// a nil list, which callers read as "absent".
type Ints []int

// UnmarshalJSON implements json.Unmarshaler.
func (l *Ints) UnmarshalJSON(b []byte) error {
	var raw []Int
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		*l = nil
		return nil
	}
	out := make(Ints, len(raw))
	for i, v := range raw {
		out[i] = int(v)
	}
	*l = out
	return nil
}

// Text is a string field that a server may also send as a number (ids such
// as owner_id or me); null decodes as "".
type Text string

// UnmarshalJSON implements json.Unmarshaler.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		*t = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
	default:
		*t = Text(b) // a number, true/false: keep its text
	}
	return nil
}

// Placed is the per-colour placement count. The documentation sends an
// object keyed "1" (black) and "2" (white); a PHP server may also turn such
// an array into a JSON list, read here as [black, white].
type Placed struct{ Black, White int }

// UnmarshalJSON implements json.Unmarshaler.
func (p *Placed) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*p = Placed{}
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '[':
		var l []Int
		if err := json.Unmarshal(b, &l); err != nil {
			return err
		}
		if len(l) > 0 {
			p.Black = int(l[0])
		}
		if len(l) > 1 {
			p.White = int(l[1])
		}
		return nil
	}
	var m map[string]Int
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	p.Black, p.White = int(m["1"]), int(m["2"])
	return nil
}

// MarshalJSON writes the documented object form.
func (p Placed) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"1":%d,"2":%d}`, p.Black, p.White), nil
}
