package jsonscan

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/problem"
)

func TestParseValidity(t *testing.T) {
	valid := []string{`{}`, `[]`, `0`, `-0.5e+3`, `"a\u00e9\"b"`, ` {"a":[1,{"b":null}],"c":true} `, `"\ud83d\ude00"`, `[[[]]]`}
	invalid := []string{``, ` `, `{`, `{"a"}`, `{"a":}`, `[1,]`, `01`, `1.`, `1e`, `-`, `"\x"`, "\"a\x01\"", `tru`, `{} {}`, `[1 2]`, `{"a":1,}`, `"\u12"`, `nul`, strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)}
	var d Doc
	for _, s := range valid {
		if err := d.Parse([]byte(s)); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
	for _, s := range invalid {
		err := d.Parse([]byte(s))
		if err == nil {
			t.Errorf("Parse(%q) accepted", s)
		} else if problem.KindOf(err) != problem.Malformed {
			t.Errorf("Parse(%q): %v is not Malformed", s, err)
		}
	}
}

func TestAccessors(t *testing.T) {
	var d Doc
	src := `{"a":[1,2,3],"B":"x","b":"y","S":"h\u00e9\n","n":-12,"f":1.5,"t":true,"z":null,"o":{"p":{"q":7}}}`
	if err := d.Parse([]byte(src)); err != nil {
		t.Fatal(err)
	}
	r := d.Root()
	if r.Field("a").Len() != 3 {
		t.Error("a")
	}
	var got []int
	_ = r.Field("a").Elems(func(i int, e Value) error { n, _ := e.Int(); got = append(got, n); return nil })
	if !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Errorf("elems %v", got)
	}
	got = got[:0]
	for e := r.Field("a").First(); e.Kind() != Absent; e = e.Next() {
		n, _ := e.Int()
		got = append(got, n)
	}
	if !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Errorf("First/Next %v", got)
	}
	if r.Field("o").First().Kind() != Absent || r.Field("z").First().Kind() != Absent {
		t.Error("First of a non-array")
	}
	if b, _ := r.Field("b").Bytes(); string(b) != "y" {
		t.Errorf("last match b = %s", b)
	}
	if b, _ := r.Field("B").Bytes(); string(b) != "y" {
		t.Errorf("last match B = %s (encoding/json reads the last of B and b)", b)
	}
	var keys []string
	_ = r.Members(func(k []byte, _ Value) error { keys = append(keys, string(k)); return nil })
	if strings.Join(keys, ",") != "a,B,b,S,n,f,t,z,o" {
		t.Errorf("members %v", keys)
	}
	if b, _ := r.Field("s").Bytes(); string(b) != "hé\n" {
		t.Errorf("folded, unescaped s = %q", b)
	}
	if n, ok := r.Field("n").Int(); !ok || n != -12 {
		t.Errorf("n %d %v", n, ok)
	}
	if _, ok := r.Field("f").Int(); ok {
		t.Error("1.5 read as an int")
	}
	if f, _ := r.Field("f").Float(); f != 1.5 {
		t.Error("f")
	}
	if b, ok := r.Field("t").Bool(); !ok || !b {
		t.Error("t")
	}
	if !r.Field("z").Missing() || !r.Field("nope").Missing() || r.Field("nope").Kind() != Absent {
		t.Error("missing")
	}
	if q, _ := r.Field("o").Field("p").Field("q").Int(); q != 7 {
		t.Error("nested")
	}
	if string(r.Field("S").Raw()) != `"h\u00e9\n"` {
		t.Errorf("raw %s", r.Field("S").Raw())
	}
}

// FuzzParse: the scanner accepts exactly what encoding/json accepts as one
// value, and reads strings and integers as it does.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\u0041",{"b":null}]}`, `[1e5,-0,true]`, `"\ud800"`, `{"A":1,"a":2}`} {
		f.Add([]byte(s))
	}
	var d Doc
	f.Fuzz(func(t *testing.T, b []byte) {
		err := d.Parse(b)
		if (err == nil) != json.Valid(b) {
			t.Fatalf("Parse(%q) error %v, json.Valid %v", b, err, json.Valid(b))
		}
		if err != nil {
			return
		}
		var want any
		if json.Unmarshal(b, &want) != nil {
			return
		}
		if !sameValue(d.Root(), want) {
			t.Fatalf("%q: scanner and encoding/json disagree", b)
		}
	})
}

func sameValue(v Value, want any) bool {
	switch w := want.(type) {
	case nil:
		return v.Kind() == Null
	case bool:
		b, ok := v.Bool()
		return ok && b == w
	case float64:
		f, ok := v.Float()
		return ok && f == w
	case string:
		b, ok := v.Bytes()
		return ok && string([]rune(string(b))) == w // invalid bytes read as U+FFFD, one each, as encoding/json does
	case []any:
		if v.Len() != len(w) {
			return false
		}
		same := true
		_ = v.Elems(func(i int, e Value) error { same = same && sameValue(e, w[i]); return nil })
		return same
	case map[string]any:
		for k, x := range w {
			if strings.ContainsRune(k, '\uFFFD') {
				continue // a key with invalid UTF-8: decoders only look up ASCII names
			}
			var last Value // a map keeps keys exactly: the last member of that very key
			_ = v.Members(func(key []byte, val Value) error {
				if string(key) == k {
					last = val
				}
				return nil
			})
			if !sameValue(last, x) {
				return false
			}
		}
		return v.Kind() == Object
	}
	return false
}
