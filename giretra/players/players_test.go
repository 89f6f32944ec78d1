package players

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/agents"
)

// TestInProcessSpecs: the specs giretra-strength measures name one player
// each; anything else is an error naming what is wrong, never the default
// bot measured in silence.
func TestInProcessSpecs(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr string // "": a player
	}{
		{"bot", ""},
		{"bot:fast:noinf:dd:models:linear", ""},
		{"bot:effort=0.5:budget=1s", ""},
		{"bot:oracle=full", ""},
		{"bot:oracle=partner@bid", ""},
		{"bot:oracle=opponents@play", ""},
		{"evabid+bot:fast", ""},
		{"evaplay+bot", ""},
		{"evalead+bot:noinf", ""},
		{"evafollow+bot:budget=100ms", ""},
		{"eva", ""},
		{"noisy-eva", ""},
		{"bot:budgte=1s", `"budgte=1s"`},
		{"bot:fats", `"fats"`},
		{"bot:", `""`},
		{"bot::fast", `""`},
		{"bot:fast=1", `"fast=1"`},
		{"bot:budget", `"budget"`},
		{"bot:budget=1parsec", "bad budget=1parsec"},
		{"bot:budget=0s", "bad budget=0s"},
		{"bot:budget=-1s", "bad budget=-1s"},
		{"bot:effort=lots", "bad effort=lots"},
		{"bot:effort=0", "bad effort=0"},
		{"bot:effort=NaN", "bad effort=NaN"},
		{"bot:effort=+Inf", "bad effort=+Inf"},
		{"bot:endgame=5:models:edge=8", ""},
		{"bot:edge=-4", ""},
		{"bot:learnedannounce:partnerlearned", ""},
		{"bot:endgame=0", "bad endgame=0"},
		{"bot:endgame=9", "bad endgame=9"},
		{"bot:endgame=five", "bad endgame=five"},
		{"bot:edge=31", "bad edge=31"},
		{"bot:edge=2.5", "bad edge=2.5"},
		{"bot:bideffort=4:calibours", ""},
		{"bot:bideffort=0", "bad bideffort=0"},
		{"bot:bideffort=much", "bad bideffort=much"},
		{"bot:oracle=everyone", "bad oracle=everyone"},
		{"bot:oracle=full@cut", "bad oracle=full@cut"},
		{"bottom", `unknown agent "bottom"`},
		{"evabid+eva", `evabid+ wants a bot spec after it`},
		{"evaplay+bot:budgte=1s", `"budgte=1s"`},
		{"nobody", `unknown agent "nobody"`},
		{"bot:fast,noinf,budget=1s", ""},
		{"bot:fast,budgte=1s", `"budgte=1s"`},
		{"evabid", ""},
		{"evaplay:fast,budget=1s", ""},
		{"evafollow:oracle=partner", ""},
		{"evalead:fats", `"fats"`},
		{"me=bot:fast", ""},
		{"DeterministicPlayer", ""},
		{"Razavavy", ""},
		{"kialasoa", ""},
		{"eva:fast", `unknown agent "eva:fast"`},
		{"http://127.0.0.1:1", `unknown agent "http://127.0.0.1:1"`},
		{"../bots/x", `unknown agent "../bots/x"`},
		{"two words", `unknown agent "two words"`},
	}
	for _, tt := range tests {
		p, err := New(tt.spec, nil, nil)
		switch {
		case tt.wantErr == "" && (err != nil || p == nil):
			t.Errorf("%s: %v", tt.spec, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: %v, want an error with %s", tt.spec, err, tt.wantErr)
		}
	}
}

// TestInProcessEntries: what each in-process spec plays, by the names
// its spellings share.
func TestInProcessEntries(t *testing.T) {
	for _, tt := range []struct {
		spec, name, agent, eva string
		bot                    bool
	}{
		{spec: "Eva", name: "eva", agent: "eva"},
		{spec: "DeterministicPlayer", name: "DeterministicPlayer", agent: "eva"},
		{spec: "kialasoa", name: "RandomPlayer", agent: "random"},
		{spec: "deterministic", name: "deterministic", agent: "deterministic"},
		{spec: "partner=calculating", name: "partner", agent: "calculating"},
		{spec: "bot:fast", name: "bot:fast", bot: true},
		{spec: "v2=bot:effort=2", name: "v2", bot: true},
		{spec: "evabid+bot:fast", name: "evabid+bot:fast", bot: true, eva: "bid"},
		{spec: "evabid:fast", name: "evabid:fast", bot: true, eva: "bid"},
		{spec: "EvaFollow", name: "EvaFollow", bot: true, eva: "follow"},
	} {
		e, err := InProcess(tt.spec)
		if err != nil || e.Name != tt.name || e.Agent != tt.agent || (e.Bot != nil) != tt.bot || e.Eva != tt.eva || !e.InProcess() {
			t.Errorf("%s → %+v %v", tt.spec, e, err)
		}
	}
	// Both option separators read the same options.
	for _, spec := range []string{"bot:fast:effort=2:bideffort=3:oracle=full@bid:edge=8:endgame=5:calibours", "bot:fast,effort=2,bideffort=3,oracle=full@bid,edge=8,endgame=5,calibours"} {
		e, err := InProcess(spec)
		if err != nil || !e.NeedsDeal() || !e.Bot.Fast || e.Bot.Effort != 2 || e.Bot.BidEffort != 3 || !e.Bot.Oracle.BidOnly || !e.Bot.Oracle.Partner || !e.Bot.Oracle.Opponents || e.Bot.Edge != 8 || e.Bot.BidEndgame != 5 || !e.Bot.CalibratedOurs {
			t.Errorf("%s → %+v %v", spec, e, err)
		}
	}
}

// TestResolveKinds: the registry reads every kind of the grammar, its
// shorthands and labels, and the older spellings.
func TestResolveKinds(t *testing.T) {
	root := checkout(t, "shown=Display Name")
	r := NewRegistry("", nil)
	dir := filepath.Join(root, "external-bots", "shown")
	for _, tt := range []struct {
		spec           string
		name, url, dir string
		agent          string
		bot, inProcess bool
	}{
		{spec: "http://127.0.0.1:1", name: "http://127.0.0.1:1", url: "http://127.0.0.1:1"},
		{spec: "url:http://127.0.0.1:1/x", name: "http://127.0.0.1:1/x", url: "http://127.0.0.1:1/x"},
		{spec: "b=http://127.0.0.1:1", name: "b", url: "http://127.0.0.1:1"},
		{spec: dir, dir: dir},
		{spec: "dir:" + dir, dir: dir},
		{spec: "v1=" + dir, name: "v1", dir: dir},
		{spec: "external-bots", dir: "external-bots"}, // a folder of the working directory
		{spec: "bot", name: "bot", bot: true, inProcess: true},
		{spec: "bot:fast", name: "bot:fast", bot: true, inProcess: true},
		{spec: "evaplay+bot", name: "evaplay+bot", bot: true, inProcess: true},
		{spec: "mine=noisy-eva", name: "mine", agent: "noisy-eva", inProcess: true},
		{spec: "Display Name", dir: dir},
	} {
		e, err := r.Resolve(tt.spec)
		if err != nil || e.Name != tt.name || e.URL != tt.url || e.Dir != tt.dir || e.Agent != tt.agent || (e.Bot != nil) != tt.bot || e.InProcess() != tt.inProcess {
			t.Errorf("%s → %+v %v", tt.spec, e, err)
		}
	}
	for spec, want := range map[string]string{
		"url:":        "wants the bot server's address",
		"dir:nowhere": `"nowhere" is not a folder`,
		"Eva:fast":    "Eva takes no options",
		"bot:fats":    `unknown option "fats"`,
		"evabid+eva":  "evabid+ wants a bot spec",
		"nobody":      "unknown agent 'nobody'. Available: ",
		"two words":   "unknown agent 'two words'",
		"":            "unknown agent ''",
	} {
		_, err := r.Resolve(spec)
		var se *SpecError
		if err == nil || !strings.Contains(err.Error(), want) || !errors.As(err, &se) {
			t.Errorf("%q: %v, want a SpecError with %q", spec, err, want)
		}
	}
	// Agent reads agents only.
	for _, spec := range []string{"bot", "http://127.0.0.1:1", "shown", "."} {
		if e, ok := Agent(spec); ok {
			t.Errorf("Agent(%q) = %+v", spec, e)
		}
	}
	for _, name := range agents.Names() {
		if e, ok := Agent(strings.ToUpper(name)); !ok || e.Agent != name {
			t.Errorf("Agent(%q) = %+v %v", name, e, ok)
		}
	}
}
