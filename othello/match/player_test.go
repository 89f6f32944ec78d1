package match

import (
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/stdengine"
	"github.com/botarena/gamebot/othello/wire"
)

// TestPlayerSpecs: the built-in engine's options are othello-engine's
// flags; an unknown option or a bad value is an error naming it, before
// any match is played.
func TestPlayerSpecs(t *testing.T) {
	good := []struct {
		spec  string
		check func(o *othello.EngineOptions) bool
	}{
		{"engine", func(o *othello.EngineOptions) bool {
			return o.MaxDepth == 0 && o.TTBits == 19 && o.Pool == 1 && *o.Std == othello.DefaultStd()
		}},
		{"engine:depth=4,tt-bits=16", func(o *othello.EngineOptions) bool { return o.MaxDepth == 4 && o.TTBits == 16 }},
		{"engine:movetime=100ms", func(o *othello.EngineOptions) bool { return o.FixedTime == 100*time.Millisecond }},
		{"engine:std-sel=5, std-selective=0", func(o *othello.EngineOptions) bool {
			return o.Std.MidgameSel == 5 && o.Std.ProbableSolves == 0
		}},
		{"engine:without=etc+incremental", func(o *othello.EngineOptions) bool {
			return o.Std.Without == stdengine.Without{ETC: true, Incremental: true}
		}},
		{"engine:threads=2", func(o *othello.EngineOptions) bool { return o.Threads == 2 }},
		{"engine", func(o *othello.EngineOptions) bool { return o.Threads == 0 }},
	}
	for _, tc := range good {
		p, err := ParsePlayer(tc.spec)
		if err != nil || p.InProc == nil || !tc.check(p.InProc) {
			t.Errorf("ParsePlayer(%q) = %+v, %v", tc.spec, p.InProc, err)
		}
	}
	if p, err := ParsePlayer("engine:ponder=true"); err != nil || !p.Ponder {
		t.Errorf("engine:ponder=true: %+v, %v", p, err)
	} else if _, ok := p.NewEngine(nil).(*wire.Pondering); !ok {
		t.Errorf("engine:ponder=true plays without pondering")
	}
	if p, err := ParsePlayer("/tmp/oe -depth 2"); err != nil || p.InProc != nil {
		t.Errorf("a command: %+v, %v", p, err)
	}
	bad := []struct{ spec, names string }{
		{"engine:dpeth=2", `unknown option "dpeth"`},
		{"engine:depth=x", `depth="x"`},
		{"engine:depth=65", `depth="65"`},
		{"engine:depth", `option "depth" has no value`},
		{"engine:depth=2,depth=3", `option "depth" given twice`},
		{"engine:movetime=fast", `movetime="fast"`},
		{"engine:ponder=yes", `ponder="yes"`},
		{"engine:movetime=6m", `movetime="6m"`},
		{"engine:tt-bits=40", `tt-bits="40"`},
		{"engine:std-sel=6", `std-sel="6"`},
		{"engine:std-selective=-1", `std-selective="-1"`},
		{"engine:without=etc+probcut", `"probcut"`},
		{"engine:model=/nonexistent", `model="/nonexistent"`},
		{"engine:model=/dev/null", `model="/dev/null"`},
		{"engine:threads=0", `threads="0"`},
		{"engine:threads=two", `threads="two"`},
		{"engine:threads=65", `threads="65"`},
		{"engine:", `option "" has no value`},
		{" ", "empty player"},
	}
	for _, tc := range bad {
		_, err := ParsePlayer(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("ParsePlayer(%q): %v, want an error naming %s", tc.spec, err, tc.names)
		}
	}
}
