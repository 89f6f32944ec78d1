package players

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/nboard"
	"github.com/botarena/gamebot/othello/stdengine"
	"github.com/botarena/gamebot/othello/wire"
)

// TestEngineSpecs: the in-process engine's options are othello-engine's
// flags; an unknown option or a bad value is an error naming it.
func TestEngineSpecs(t *testing.T) {
	good := []struct {
		spec  string
		check func(o *othello.EngineOptions) bool
	}{
		{"engine", func(o *othello.EngineOptions) bool {
			return o.MaxDepth == 0 && o.TTBits == 19 && o.Pool == 1 && *o.Std == othello.DefaultStd() && o.Threads == 0
		}},
		{"engine:", func(o *othello.EngineOptions) bool { return o.MaxDepth == 0 && o.TTBits == 19 }},
		{"engine:depth=4,tt-bits=16", func(o *othello.EngineOptions) bool { return o.MaxDepth == 4 && o.TTBits == 16 }},
		{"engine:movetime=100ms", func(o *othello.EngineOptions) bool { return o.FixedTime == 100*time.Millisecond }},
		{"engine:selectivity=5, probable-solves=0", func(o *othello.EngineOptions) bool {
			return o.Std.MidgameSel == 5 && o.Std.ProbableSolves == 0
		}},
		{"engine:std-sel=2,std-selective=3", func(o *othello.EngineOptions) bool { // the older names
			return o.Std.MidgameSel == 2 && o.Std.ProbableSolves == 3
		}},
		{"engine:without=etc+incremental", func(o *othello.EngineOptions) bool {
			return o.Std.Without == stdengine.Without{ETC: true, Incremental: true}
		}},
		{"engine:threads=2", func(o *othello.EngineOptions) bool { return o.Threads == 2 }},
		{"engine:solve-at=12,depth=3", func(o *othello.EngineOptions) bool { return o.SolveAt == 12 && o.MaxDepth == 3 }},
		{"engine:generic-anti=true", func(o *othello.EngineOptions) bool { return o.Std.GenericAnti }},
		{"engine:mpc=1.752+-1.406+0.401+3.342+-5.507", func(o *othello.EngineOptions) bool {
			return o.Std.Errors != nil && *o.Std.Errors == stdengine.ErrorModel{A: 1.752, B: -1.406, C: 0.401, D: 3.342, E: -5.507}
		}},
		{"A=engine:depth=2", func(o *othello.EngineOptions) bool { return o.MaxDepth == 2 }},
	}
	for _, tc := range good {
		p, err := Parse(tc.spec)
		if err != nil || p.Kind != KindEngine || p.Engine == nil || !tc.check(p.Engine) {
			t.Errorf("Parse(%q) = %+v, %v", tc.spec, p.Engine, err)
		}
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
		{"engine:selectivity=6", `selectivity="6"`},
		{"engine:std-sel=6", `std-sel="6"`},
		{"engine:probable-solves=-1", `probable-solves="-1"`},
		{"engine:without=etc+probcut", `"probcut"`},
		{"engine:model=/nonexistent", `model="/nonexistent"`},
		{"engine:model=/dev/null", `model="/dev/null"`},
		{"engine:threads=0", `threads="0"`},
		{"engine:mpc=1+2+3", `mpc="1+2+3"`},
		{"engine:mpc=1+2+3+4+x", `mpc="1+2+3+4+x"`},
		{"engine:mpc=1+2+3+4+NaN", `mpc="1+2+3+4+NaN"`},
		{"engine:threads=two", `threads="two"`},
		{"engine:threads=65", `threads="65"`},
		{"jsonline:", "name the command"},
		{"nboard:depth=2:", "name the command"},
		{"nboard:depth=x:./ntest", `depth="x"`},
		{"http://127.0.0.1:5063/othello/move", "not a URL"},
		{" ", "empty player"},
	}
	for _, tc := range bad {
		_, err := Parse(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("Parse(%q): %v, want an error naming %s", tc.spec, err, tc.names)
		}
	}
}

// TestCommandSpecs: the command kinds, and any other text as a JSON-line
// command, the older form.
func TestCommandSpecs(t *testing.T) {
	for _, tc := range []struct {
		spec, name, kind, command, dir string
		depth                          int
	}{
		{"/tmp/oe -depth 2", "/tmp/oe -depth 2", KindCommand, "/tmp/oe -depth 2", "", 0},
		{"othello-engine -depth 4", "othello-engine -depth 4", KindCommand, "othello-engine -depth 4", "", 0},
		{"X=1 othello-engine", "X=1 othello-engine", KindCommand, "X=1 othello-engine", "", 0},
		{"child=jsonline:GAMEBOT=1 /bin/x", "child", KindCommand, "GAMEBOT=1 /bin/x", "", 0},
		{"ntest=nboard:/opt/ntest/ntest x", "ntest", KindNBoard, "/opt/ntest/ntest x", "/opt/ntest", 0},
		{"nboard:depth=8:ntest x", "nboard:depth=8:ntest x", KindNBoard, "ntest x", "", 8},
		{"nboard:depth=8,dir=/data:/opt/ntest/ntest x", "nboard:depth=8,dir=/data:/opt/ntest/ntest x", KindNBoard, "/opt/ntest/ntest x", "/data", 8},
		{"nboard:FOO=a:b ./ntest", "nboard:FOO=a:b ./ntest", KindNBoard, "FOO=a:b ./ntest", "", 0},
	} {
		p, err := Parse(tc.spec)
		if err != nil || p.Name != tc.name || p.Kind != tc.kind || p.Command != tc.command || p.Dir != tc.dir || p.Depth != tc.depth {
			t.Errorf("Parse(%q) = %+v, %v", tc.spec, p, err)
		}
	}
}

// TestStart: each kind starts its engine; an NBoard engine plays std
// only, and without clocks our engine with neither depth nor move time
// searches UntimedMoveTime a move.
func TestStart(t *testing.T) {
	start := func(spec string, l Leg) wire.Engine {
		t.Helper()
		p, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		e, err := p.Start(l)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		return e
	}
	if _, ok := start("engine:ponder=true", Leg{Timed: true}).(*wire.Pondering); !ok {
		t.Error("engine:ponder=true plays without pondering")
	}
	if _, ok := start("engine", Leg{Timed: true}).(wire.InProcess); !ok {
		t.Error("engine is not in process")
	}
	if _, ok := start("x", Leg{}).(*jsonline.Engine); !ok {
		t.Error("a command is not a JSON-line engine")
	}
	if e, ok := start("nboard:depth=3:x", Leg{Mode: othello.Std}).(*nboard.Engine); !ok || e.Depth != 3 {
		t.Errorf("nboard: %#v", e)
	}
	p, _ := Parse("nboard:x")
	if _, err := p.Start(Leg{Mode: othello.Anti}); err == nil || !strings.Contains(err.Error(), "std only") || !p.StdOnly() {
		t.Errorf("an NBoard engine at anti: %v", err)
	}
}

// TestFlags: othello-engine's flags are the options, aliases included,
// and a true/false option's flag stands alone.
func TestFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	build := Flags(fs, "engine")
	if err := fs.Parse([]string{"-depth", "7", "-std-sel", "3", "-probable-solves", "2", "-ponder", "-without", "etc,stability"}); err != nil {
		t.Fatal(err)
	}
	p, err := build()
	if err != nil || p.Engine.MaxDepth != 7 || p.Engine.Std.MidgameSel != 3 || p.Engine.Std.ProbableSolves != 2 || !p.Ponder ||
		p.Engine.Std.Without != (stdengine.Without{ETC: true, Stability: true}) {
		t.Fatalf("%+v %v", p, err)
	}
	fs = flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	build = Flags(fs, "engine")
	if err := fs.Parse([]string{"-tt-bits", "40"}); err != nil {
		t.Fatal(err)
	}
	if _, err := build(); err == nil || !strings.Contains(err.Error(), "tt-bits") {
		t.Fatalf("a bad flag: %v", err)
	}
}
