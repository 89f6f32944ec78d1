package problem

import (
	"strings"
	"testing"
)

type setupBody struct {
	Seats  []string `json:"seats"`
	Target *int     `json:"target"`
	Paused bool     `json:"paused"`
	Inner  *struct {
		Pos int `json:"pos"`
	} `json:"inner"`
}

func TestDecodeStrict(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: "" for success, else a fragment of the message
	}{
		{`{"seats": ["you"], "target": 151}`, ""},
		{`{"seats": ["you"], "taget": 151}`, `unknown field "taget"`},
		{`{"inner": {"pos": 1, "po": 2}}`, `unknown field "po"`},
		{`{"target": "151"}`, `"target" must be a whole number, not a string`},
		{`{"target": 1.5}`, `"target" must be a whole number, not the number 1.5`},
		{`{"seats": "you"}`, `"seats" must be a list, not a string`},
		{`{"paused": 1}`, `"paused" must be true or false, not a number`},
		{`{"inner": []}`, `"inner" must be an object, not a list`},
		{`[]`, `want an object, not a list`},
		{`{} {}`, `trailing data`},
		{`{"seats": [`, `ends too early`},
		{`{"seats": x}`, `malformed JSON at byte`},
		{``, `empty request`},
	} {
		var v setupBody
		err := DecodeStrict([]byte(tc.in), &v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		case err != nil && KindOf(err) != Malformed:
			t.Errorf("%s: kind %v", tc.in, KindOf(err))
		case err != nil && strings.Contains(err.Error(), "problem."):
			t.Errorf("%s: a Go name in %q", tc.in, err)
		}
	}
}

func FuzzDecodeStrict(f *testing.F) {
	for _, s := range []string{`{"seats": ["you"]}`, `{"x": 1}`, `[`, `{"inner": {"pos": "a"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var v setupBody
		if err := DecodeStrict([]byte(in), &v); err != nil && KindOf(err) != Malformed {
			t.Fatalf("%q: %v is not Malformed", in, err)
		}
	})
}
