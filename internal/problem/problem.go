// Package problem is the one error model of the request edge: every game's
// wire package reports what is wrong with a request as a Problem of one of
// a few kinds, and internal/httpkit maps each kind to an HTTP status in
// exactly one place (the model itself knows nothing of HTTP, so engines
// and JSON-line clients link no net/http through it). It also holds the
// JSON decoders the wire packages and the tables share, so that HTTP
// clients and JSON-line clients get the same words for the same mistake.
package problem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Kind classifies a request problem.
type Kind uint8

const (
	// Internal is anything that is not a Problem: a bug, never the
	// client's fault (HTTP 500).
	Internal Kind = iota
	// Malformed input cannot be read: bad JSON, wrong types, unknown names,
	// missing required fields (400).
	Malformed
	// NotFound names something the server does not hold, such as an
	// unknown or expired session (404).
	NotFound
	// TooLarge input exceeds the size the edge accepts (413).
	TooLarge
	// Impossible input is well formed but describes something that cannot
	// be: a request offering no option, a position that cannot exist, a
	// fleet that cannot fit, a move the rules forbid (422).
	Impossible
	// Stale input was decided on a state that is no longer the current
	// one: an action sent twice, or after the game moved on (409).
	Stale
	// Forbidden requests come from where they may not: another origin,
	// a Host the listener is not reached by, a table's seat held by
	// someone else (403).
	Forbidden
	// Unavailable: the server cannot take more now, such as a new table
	// beyond the cap (503).
	Unavailable
)

var kindNames = [...]string{Internal: "internal", Malformed: "malformed", NotFound: "not found", TooLarge: "too large", Impossible: "impossible", Stale: "stale", Forbidden: "forbidden", Unavailable: "unavailable"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Problem is a request error of a known kind. Msg is written for the
// client. Body, when set, is sent instead of the default {"error": Msg}
// (it must carry the message too): a protocol that needs an answer even
// to a bad request — botsarena's play-turn — puts it there.
type Problem struct {
	Kind Kind
	Msg  string
	Body any
}

func (p *Problem) Error() string { return p.Msg }

// New returns a Problem of kind k.
func New(k Kind, format string, args ...any) *Problem {
	return &Problem{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Malformedf is New(Malformed, ...).
func Malformedf(format string, args ...any) *Problem { return New(Malformed, format, args...) }

// Impossiblef is New(Impossible, ...).
func Impossiblef(format string, args ...any) *Problem { return New(Impossible, format, args...) }

// Wrap prefixes a Problem's message with context (a field path), keeping
// its kind; any other error becomes Internal.
func Wrap(err error, prefix string) error {
	if err == nil {
		return nil
	}
	var p *Problem
	if errors.As(err, &p) {
		return &Problem{Kind: p.Kind, Msg: prefix + ": " + p.Msg, Body: p.Body}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}

// KindOf returns the kind of err: Internal unless it is (or wraps) a
// Problem.
func KindOf(err error) Kind {
	var p *Problem
	if errors.As(err, &p) {
		return p.Kind
	}
	return Internal
}

// Decode decodes exactly one JSON value from b into v: unknown fields are
// allowed (platforms add fields over time), trailing data is not, and type
// mismatches name the field. Every failure is Malformed.
func Decode(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return Malformedf("empty request: a JSON object is required")
	}
	// json.Unmarshal checks the whole input before decoding, trailing data
	// included, and costs less than a json.Decoder.
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		field := ute.Field
		if field == "" {
			field = "request"
		}
		return Malformedf("malformed JSON: %s must be %s, not %s", field, ute.Type, ute.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value") {
		return Malformedf("malformed JSON: trailing data after the JSON value")
	}
	return Malformedf("malformed JSON: %v", err)
}

// DecodeStrict is Decode for input that only our own pages and tools
// write (the browser tables' setups and actions): an unknown field is an
// error naming it, because a misspelt option silently ignored gives the
// person a game they did not ask for. Messages speak of JSON values ("a
// whole number", "an object"), never of Go types.
func DecodeStrict(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return Malformedf("empty request: a JSON object is required")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	if err == nil {
		if _, terr := d.Token(); terr != io.EOF {
			return Malformedf("malformed JSON: trailing data after the JSON value")
		}
		return nil
	}
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		field := ute.Field
		if field == "" {
			return Malformedf("malformed JSON: want %s, not %s", jsonKind(ute.Type), article(ute.Value))
		}
		return Malformedf("malformed JSON: %q must be %s, not %s", field, jsonKind(ute.Type), article(ute.Value))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return Malformedf("unknown field %s", name)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return Malformedf("malformed JSON: the value ends too early")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Malformedf("malformed JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	return Malformedf("malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// jsonKind names the JSON value a Go type is read from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return "a string"
		}
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a JSON value"
}

// article puts the JSON decoder's name of a value ("number", "array",
// "number 1.5") in words.
func article(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "string":
		return "a string"
	case v == "bool":
		return "true or false"
	case v == "number":
		return "a number"
	case strings.HasPrefix(v, "number "):
		return "the number" + strings.TrimPrefix(v, "number")
	}
	return v
}
