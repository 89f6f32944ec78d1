package spec

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in               string
		label, kind, arg string
		hasArg           bool
		err              string
	}{
		{in: "engine", kind: "engine"},
		{in: " engine:depth=12,threads=2 ", kind: "engine", arg: "depth=12,threads=2", hasArg: true},
		{in: "Eva", kind: "Eva"},
		{in: "noisy-eva", kind: "noisy-eva"},
		{in: "http://127.0.0.1:5063/x?a=b", kind: "url", arg: "http://127.0.0.1:5063/x?a=b", hasArg: true},
		{in: "HTTPS://h.invalid", kind: "url", arg: "HTTPS://h.invalid", hasArg: true},
		{in: "url:http://h.invalid", kind: "url", arg: "http://h.invalid", hasArg: true},
		{in: "ntest=nboard:./ntest -x a=b", label: "ntest", kind: "nboard", arg: "./ntest -x a=b", hasArg: true},
		{in: "A=engine:depth=3", label: "A", kind: "engine", arg: "depth=3", hasArg: true},
		{in: "child=jsonline:GIRETRA=1 /bin/x", label: "child", kind: "jsonline", arg: "GIRETRA=1 /bin/x", hasArg: true},
		{in: "external-bots/x", kind: "dir", arg: "external-bots/x", hasArg: true},
		{in: "../x", kind: "dir", arg: "../x", hasArg: true},
		{in: ".", kind: "dir", arg: ".", hasArg: true},
		{in: "dir:bots/x", kind: "dir", arg: "bots/x", hasArg: true},
		{in: "engine:", kind: "engine", hasArg: true},
		{in: "", err: "empty player"},
		{in: "x=", label: "x", err: "empty player"},
		{in: "two words", err: "is not a name"},
		{in: "a b=engine", err: "is not a name"},
	} {
		s, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || s.Label != tc.label || s.Kind != tc.kind || s.Arg != tc.arg || s.HasArg != tc.hasArg {
			t.Errorf("%q: %+v %v", tc.in, s, err)
		}
		if back, err := Parse(s.String()); err != nil || back.Kind != s.Kind || back.Arg != s.Arg || back.Label != s.Label {
			t.Errorf("%q: read back from %q as %+v %v", tc.in, s.String(), back, err)
		}
	}
}

func TestOptions(t *testing.T) {
	s, _ := Parse("engine:depth=12, model=a.gz ,without=etc+stability")
	o, err := s.Options("depth", "model", "without")
	if err != nil || len(o) != 3 || o[1] != (Option{"model", "a.gz"}) || o[2].Value != "etc+stability" {
		t.Fatalf("%+v %v", o, err)
	}
	for in, want := range map[string]string{
		"engine:depth":           "has no value",
		"engine:depth=1,depth=2": "given twice",
		"engine:dpeth=1":         `unknown option "dpeth"`,
		"engine:=1":              "has no value",
	} {
		s, _ := Parse(in)
		if _, err := s.Options("depth"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if o, err := (Spec{Kind: "engine"}).Options(); o != nil || err != nil {
		t.Errorf("no options: %v %v", o, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"engine:depth=1", "a=b:c", "http://x", "../x", "", "=:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		back, err := Parse(s.String())
		if err != nil || back.Kind != s.Kind || back.Arg != s.Arg || back.Label != s.Label {
			t.Fatalf("%q → %q → %+v %v", in, s.String(), back, err)
		}
	})
}
