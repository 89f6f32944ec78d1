package players

import (
	"strings"
	"testing"
)

// TestResolve: every form of a player spec, and the refusals, each
// naming what is wrong.
func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		text string
		want Entry
	}{
		{"self", Entry{Name: "self", Agent: "self"}},
		{"engine", Entry{Name: "engine", Agent: "self"}},
		{"Dreadnought-Exact", Entry{Name: "Dreadnought-Exact", Agent: "dreadnought-exact"}},
		{"stupid", Entry{Name: "stupid", Agent: "stupid"}},
		{"http://127.0.0.1:5063/battleship", Entry{Name: "http://127.0.0.1:5063/battleship", URL: "http://127.0.0.1:5063/battleship"}},
		{"url:https://bots.example.invalid/b", Entry{Name: "url:https://bots.example.invalid/b", URL: "https://bots.example.invalid/b"}},
		{"mine=http://127.0.0.1:1/", Entry{Name: "mine", URL: "http://127.0.0.1:1/"}},
		{"old=dg", Entry{Name: "old", Agent: "dg"}},
	} {
		got, err := Resolve(tt.text)
		if err != nil || got != tt.want {
			t.Errorf("%q: %+v, %v; want %+v", tt.text, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ text, want string }{
		{"stupd", `unknown in-process player "stupd": want self, stupid, dg, dreadnought, dreadnought-place, dreadnought-shoot, dreadnought-static or dreadnought-exact, or a URL`},
		{"ftp://x", `"ftp://x"`},
		{"http://", `player "http://": not a URL with a host`},
		{"url:ftp://x", `not a URL with a host`},
		{"dg:depth=3", `"dg:depth=3"`},
		{"", "unknown in-process player"},
	} {
		if _, err := Resolve(tt.text); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want an error with %s", tt.text, err, tt.want)
		}
	}
	if _, _, err := Agent("http://127.0.0.1:1/"); err == nil || strings.Contains(err.Error(), "or a URL") {
		t.Errorf("a URL as an agent: %v", err)
	}
	if e, a, err := Agent("dreadnought"); err != nil || a.Name() != "dreadnought" || e.Agent != "dreadnought" {
		t.Errorf("an agent: %+v %v", e, err)
	}
}
