// Package jsonscan is the request edge's fast JSON reader: one strict pass
// over the input (RFC 8259 syntax, one value, nothing after it but blanks)
// records every value's place in a flat token list, and decoders then walk
// that list, reading only the fields they need, without reflection and
// almost without allocating. The Giretra notifications and decisions are
// the server's most frequent requests; decoding them with encoding/json
// cost more than everything else on the path together.
//
// Field names match exactly first, then ignoring ASCII case, as
// encoding/json matches them. Errors are *problem.Problem of kind
// Malformed and name the offending field by its path.
package jsonscan

import (
	"bytes"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/botarena/gamebot/internal/problem"
)

// Kind is a JSON value's type.
type Kind uint8

// Value kinds. Absent is the kind of a field that is not there.
const (
	Absent Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"absent", "null", "a boolean", "a number", "a string", "an array", "an object"}

func (k Kind) String() string { return kindNames[k] }

// MaxDepth bounds nesting: deeper input is refused rather than recursed
// into.
const MaxDepth = 64

type tok struct {
	start, end int32 // the value's bytes (strings: inside the quotes)
	next       int32 // index of the first token after this value's subtree
	kind       Kind
	esc        bool // a string with escapes
	truth      bool // a true Bool
}

// Doc is a parsed document. A Doc may be reused for the next Parse, which
// keeps its token list's capacity.
type Doc struct {
	src  []byte
	toks []tok
}

// Parse checks src and records its values. src must not change while d is
// in use: strings are read from it.
func (d *Doc) Parse(src []byte) error {
	d.src, d.toks = src, d.toks[:0]
	p := parser{d: d, src: src}
	p.ws()
	if p.i >= len(src) {
		return problem.Malformedf("empty request: a JSON value is required")
	}
	if err := p.value(0); err != nil {
		return err
	}
	p.ws()
	if p.i < len(src) {
		return problem.Malformedf("malformed JSON: trailing data after the JSON value (offset %d)", p.i)
	}
	return nil
}

// Root is the document's value.
func (d *Doc) Root() Value { return Value{d: d} }

type parser struct {
	d   *Doc
	src []byte
	i   int
}

func (p *parser) ws() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) errAt(what string) error {
	if p.i >= len(p.src) {
		return problem.Malformedf("malformed JSON: unexpected end of input, %s", what)
	}
	return problem.Malformedf("malformed JSON: invalid character %q at offset %d, %s", p.src[p.i], p.i, what)
}

func (p *parser) push(k Kind, start int) int {
	p.d.toks = append(p.d.toks, tok{kind: k, start: int32(start)})
	return len(p.d.toks) - 1
}

func (p *parser) value(depth int) error {
	if depth > MaxDepth {
		return problem.Malformedf("malformed JSON: nested deeper than %d", MaxDepth)
	}
	if p.i >= len(p.src) {
		return p.errAt("expecting a value")
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", Bool, true)
	case c == 'f':
		return p.literal("false", Bool, false)
	case c == 'n':
		return p.literal("null", Null, false)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return p.errAt("expecting a value")
}

func (p *parser) literal(word string, k Kind, truth bool) error {
	if !bytes.HasPrefix(p.src[p.i:], []byte(word)) {
		return p.errAt("expecting " + word)
	}
	t := p.push(k, p.i)
	p.i += len(word)
	p.d.toks[t].end, p.d.toks[t].next, p.d.toks[t].truth = int32(p.i), int32(t+1), truth
	return nil
}

func (p *parser) number() error {
	t := p.push(Number, p.i)
	s := p.src
	if s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(s) && s[p.i] == '0':
		p.i++
	case p.i < len(s) && s[p.i] >= '1' && s[p.i] <= '9':
		for p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
			p.i++
		}
	default:
		return p.errAt("in a number")
	}
	if p.i < len(s) && s[p.i] == '.' {
		p.i++
		if p.i >= len(s) || s[p.i] < '0' || s[p.i] > '9' {
			return p.errAt("after a decimal point")
		}
		for p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
			p.i++
		}
	}
	if p.i < len(s) && (s[p.i] == 'e' || s[p.i] == 'E') {
		p.i++
		if p.i < len(s) && (s[p.i] == '+' || s[p.i] == '-') {
			p.i++
		}
		if p.i >= len(s) || s[p.i] < '0' || s[p.i] > '9' {
			return p.errAt("in an exponent")
		}
		for p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
			p.i++
		}
	}
	p.d.toks[t].end, p.d.toks[t].next = int32(p.i), int32(t+1)
	return nil
}

// str records a string; p.i is at its opening quote.
func (p *parser) str() error {
	p.i++
	t := p.push(String, p.i)
	s := p.src
	for p.i < len(s) {
		c := s[p.i]
		switch {
		case c == '"':
			p.d.toks[t].end, p.d.toks[t].next = int32(p.i), int32(t+1)
			p.i++
			return nil
		case c == '\\':
			p.d.toks[t].esc = true
			p.i++
			if p.i >= len(s) {
				return p.errAt("in a string escape")
			}
			switch s[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				if p.i+4 >= len(s) {
					p.i = len(s)
					return p.errAt("in a \\u escape")
				}
				for _, h := range s[p.i+1 : p.i+5] {
					if !isHex(h) {
						return p.errAt("in a \\u escape")
					}
				}
				p.i += 5
			default:
				return p.errAt("in a string escape")
			}
		case c < 0x20:
			return p.errAt("in a string (control character)")
		default:
			p.i++
		}
	}
	return p.errAt("in a string")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (p *parser) object(depth int) error {
	t := p.push(Object, p.i)
	p.i++
	p.ws()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		p.d.toks[t].end, p.d.toks[t].next = int32(p.i), int32(len(p.d.toks))
		return nil
	}
	for {
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return p.errAt("expecting a field name")
		}
		if err := p.str(); err != nil {
			return err
		}
		p.ws()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.errAt("expecting ':' after a field name")
		}
		p.i++
		p.ws()
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			p.ws()
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			p.d.toks[t].end, p.d.toks[t].next = int32(p.i), int32(len(p.d.toks))
			return nil
		}
		return p.errAt("expecting ',' or '}' in an object")
	}
}

func (p *parser) array(depth int) error {
	t := p.push(Array, p.i)
	p.i++
	p.ws()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		p.d.toks[t].end, p.d.toks[t].next = int32(p.i), int32(len(p.d.toks))
		return nil
	}
	for {
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			p.ws()
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			p.d.toks[t].end, p.d.toks[t].next = int32(p.i), int32(len(p.d.toks))
			return nil
		}
		return p.errAt("expecting ',' or ']' in an array")
	}
}

// Value is one value of a Doc (or an absent field). The zero Value is
// absent.
type Value struct {
	d   *Doc
	i   int32
	end int32 // for an array element: where its array's elements end
}

func (v Value) t() *tok { return &v.d.toks[v.i] }

// Kind is the value's type; Absent for a field that is not there.
func (v Value) Kind() Kind {
	if v.d == nil {
		return Absent
	}
	return v.t().kind
}

// Missing reports an absent field or a null: "not given".
func (v Value) Missing() bool { k := v.Kind(); return k == Absent || k == Null }

// Raw is the value's JSON text (strings with their quotes); nil if absent.
func (v Value) Raw() []byte {
	if v.d == nil {
		return nil
	}
	t := v.t()
	if t.kind == String {
		return v.d.src[t.start-1 : t.end+1]
	}
	return v.d.src[t.start:t.end]
}

// Field returns the member name of an object as encoding/json would fill
// a struct field of that name: the last member whose key is name exactly
// or ignoring ASCII case. Absent if there is none or v is not an object.
// (encoding/json also checks the types of earlier copies of a repeated
// field; only the last is read here.)
func (v Value) Field(name string) Value {
	if v.Kind() != Object {
		return Value{}
	}
	toks := v.d.toks
	end := toks[v.i].next
	found := int32(-1)
	for k := v.i + 1; k < end; {
		key := &toks[k]
		val := k + 1
		raw := v.d.src[key.start:key.end]
		if key.esc {
			raw, _ = unquote(raw)
		}
		if len(raw) == len(name) && (string(raw) == name || bytes.EqualFold(raw, []byte(name))) {
			found = val
		}
		k = toks[val].next
	}
	if found < 0 {
		return Value{}
	}
	return Value{d: v.d, i: found}
}

// Members calls f for each member of an object, in order, with its key
// unescaped; it stops at the first error.
func (v Value) Members(f func(key []byte, val Value) error) error {
	if v.Kind() != Object {
		return nil
	}
	toks := v.d.toks
	for k := v.i + 1; k < toks[v.i].next; {
		key := &toks[k]
		raw := v.d.src[key.start:key.end]
		if key.esc {
			raw, _ = unquote(raw)
		}
		if err := f(raw, Value{d: v.d, i: k + 1}); err != nil {
			return err
		}
		k = toks[k+1].next
	}
	return nil
}

// Len is the number of elements of an array (0 for anything else).
func (v Value) Len() int {
	n := 0
	for e := v.First(); e.Kind() != Absent; e = e.Next() {
		n++
	}
	return n
}

// First is an array's first element, for iterating without a closure:
//
//	for e := v.First(); e.Kind() != jsonscan.Absent; e = e.Next() { … }
//
// Absent when v is not an array or is empty.
func (v Value) First() Value {
	if v.Kind() != Array {
		return Value{}
	}
	end := v.d.toks[v.i].next
	if v.i+1 >= end {
		return Value{}
	}
	return Value{v.d, v.i + 1, end}
}

// Next is the element after v in its array (see First); Absent after the
// last one.
func (v Value) Next() Value {
	if v.d == nil || v.end == 0 {
		return Value{}
	}
	n := v.d.toks[v.i].next
	if n >= v.end {
		return Value{}
	}
	return Value{v.d, n, v.end}
}

// Elems calls f for each element of an array, stopping at the first error.
func (v Value) Elems(f func(i int, e Value) error) error {
	i := 0
	for e := v.First(); e.Kind() != Absent; e = e.Next() {
		if err := f(i, e); err != nil {
			return err
		}
		i++
	}
	return nil
}

// Bytes is a string's content, unescaped; it aliases the input when the
// string has no escapes. ok is false for anything but a string.
func (v Value) Bytes() (b []byte, ok bool) {
	if v.Kind() != String {
		return nil, false
	}
	t := v.t()
	raw := v.d.src[t.start:t.end]
	if !t.esc {
		return raw, true
	}
	return unquote(raw)
}

// Bool is a boolean's value.
func (v Value) Bool() (b, ok bool) {
	if v.Kind() != Bool {
		return false, false
	}
	return v.t().truth, true
}

// Float is a number's value.
func (v Value) Float() (float64, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v.Raw()), 64)
	return f, err == nil && !math.IsInf(f, 0)
}

// Int is a number's value when it is an integer that fits an int, as
// encoding/json reads into an int field: 12 yes, 12.0 and 1e3 no.
func (v Value) Int() (int, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	raw := v.Raw()
	n, neg := 0, false
	if raw[0] == '-' {
		neg, raw = true, raw[1:]
	}
	if len(raw) > 18 {
		return 0, false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// unquote decodes a string's escapes.
func unquote(raw []byte) ([]byte, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return nil, false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			out = append(out, raw[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := decodeU(raw[i:])
			if n == 0 {
				return nil, false
			}
			out = utf8.AppendRune(out, r)
			i += n
			continue
		default:
			return nil, false
		}
		i += 2
	}
	return out, true
}

// decodeU reads \uXXXX (and a following low surrogate) at the start of b.
func decodeU(b []byte) (rune, int) {
	hex := func(b []byte) rune {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return -1
		}
		v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
		if err != nil {
			return -1
		}
		return rune(v)
	}
	r := hex(b)
	if r < 0 {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if r2 := hex(b[min(6, len(b)):]); r2 >= 0 {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// TypeError is the Malformed problem of a field of the wrong type: path
// names the field as the request spells it (handState.currentTrick).
func TypeError(path, want string, v Value) error {
	return problem.Malformedf("%s must be %s, not %s", path, want, v.Kind())
}
