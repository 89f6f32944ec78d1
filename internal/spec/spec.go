// Package spec is the one grammar that names a player, in every game and
// every place a player is named: a referee's or a match's command line,
// a browser table's engines, a connector's engine. Each game keeps one
// registry that turns a Spec into a player of its own; this package knows
// no game.
//
//	spec   = [label "="] kind [":" arg]
//	kind   = a word: letters, digits, "-", "_" and "." (a registry's name
//	         for a player, or a kind of player: engine, url, jsonline, …)
//	arg    = the rest, verbatim: options ("depth=12,model=x.gz"), a
//	         command, a URL, a folder — as the kind reads it
//
// Two shorthands read as their kinds: an http(s) URL is url:URL, and
// (where a registry allows paths) anything holding a slash is dir:PATH.
// A label names the player where a name is needed ("ntest=nboard:./ntest"
// is the engine ntest); it is a word followed by "=" before any ":".
//
// Examples: "engine", "engine:depth=12,threads=2", "Eva",
// "http://127.0.0.1:5063", "ntest=nboard:./ntest", "dir:external-bots/x".
package spec

import (
	"fmt"
	"strings"
)

// Spec is a parsed player spec.
type Spec struct {
	Label string // "" when none was given
	Kind  string // as written; registries compare it ignoring case
	Arg   string // after the first ":" of the kind, verbatim ("" when none)
	// HasArg reports a ":" after the kind ("engine:" has an empty Arg).
	HasArg bool

	body string // the spec as written, less its label
}

// Parse reads a spec. A URL (http:// or https://) is url:URL; a text
// holding a slash before any ":" is dir:TEXT. It fails on an empty spec,
// an empty label, or a kind that is not a word.
func Parse(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	var sp Spec
	if label, rest, ok := strings.Cut(s, "="); ok && isWord(label) && !strings.Contains(label, ":") {
		// "ntest=nboard:…": the "=" comes before any ":" (an option's
		// "=" comes after one).
		sp.Label, s = label, strings.TrimSpace(rest)
	}
	if s == "" {
		return sp, fmt.Errorf("empty player: name one (%s)", Examples)
	}
	sp.body = s
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		sp.Kind, sp.Arg, sp.HasArg = "url", s, true
		return sp, nil
	}
	kind, arg, has := strings.Cut(s, ":")
	if strings.ContainsAny(kind, `/\`) || kind == "." || kind == ".." {
		sp.Kind, sp.Arg, sp.HasArg = "dir", s, true
		return sp, nil
	}
	if !isWord(kind) {
		return sp, fmt.Errorf("player %q: %q is not a name or a kind of player (%s)", s, kind, Examples)
	}
	sp.Kind, sp.Arg, sp.HasArg = kind, arg, has
	return sp, nil
}

// Examples are specs of every shape, for messages.
const Examples = `e.g. engine, engine:depth=12, Eva, http://127.0.0.1:5063, ntest=nboard:./ntest`

// Is reports whether the spec's kind is kind, ignoring case.
func (s Spec) Is(kind string) bool { return strings.EqualFold(s.Kind, kind) }

// Name is the player's name: its label, else the spec as written.
func (s Spec) Name() string {
	if s.Label != "" {
		return s.Label
	}
	return s.Body()
}

// Body is the spec as written, without its label.
func (s Spec) Body() string {
	switch {
	case s.body != "":
		return s.body
	case !s.HasArg:
		return s.Kind
	}
	return s.Kind + ":" + s.Arg
}

// String is the spec as Parse reads it back.
func (s Spec) String() string {
	if s.Label != "" {
		return s.Label + "=" + s.Body()
	}
	return s.Body()
}

// Option is one key=value of a spec's options.
type Option struct{ Key, Value string }

// Options reads Arg as options, "key=value" separated by commas, in
// order. A key without "=", an empty key or a key given twice is an
// error naming it; known (nil: any) lists the keys allowed.
func (s Spec) Options(known ...string) ([]Option, error) {
	if strings.TrimSpace(s.Arg) == "" {
		return nil, nil
	}
	var out []Option
	seen := map[string]bool{}
	for _, kv := range strings.Split(s.Arg, ",") {
		key, val, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		switch {
		case !ok || key == "":
			return nil, fmt.Errorf("player %q: option %q has no value (key=value)", s, strings.TrimSpace(kv))
		case seen[key]:
			return nil, fmt.Errorf("player %q: option %q given twice", s, key)
		case known != nil && !contains(known, key):
			return nil, fmt.Errorf("player %q: unknown option %q (known: %s)", s, key, strings.Join(known, ", "))
		}
		seen[key] = true
		out = append(out, Option{Key: key, Value: strings.TrimSpace(val)})
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isWord reports whether s is a non-empty run of letters, digits, "-",
// "_" and ".".
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
		default:
			return false
		}
	}
	return true
}
