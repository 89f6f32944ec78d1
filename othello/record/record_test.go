package record

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
)

// randomLeg plays a random game of mode from its initial position (or a
// random opening), recording scores on white's moves.
func randomLeg(t *testing.T, mode othello.Mode, seed uint64, opening int) Leg {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	st := othello.NewState(mode)
	size := mode.Size()
	l := Leg{Version: Version, Mode: mode.String(), Start: StartInitial, Players: [2]Player{{"a", "person"}, {"b", "engine"}},
		ClockMs: 60000, Started: time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)}
	for range opening {
		legal := st.LegalMoves()
		sq := legal[rng.IntN(len(legal))]
		st.Play(sq)
		l.Opening = append(l.Opening, othello.SquareName(sq, size))
		l.Start = StartRandom
	}
	for !st.Over() {
		legal := st.LegalMoves()
		sq := othello.Pass
		if len(legal) > 0 {
			sq = legal[rng.IntN(len(legal))]
		}
		m := Move{Move: MoveName(sq, size), Ms: int64(rng.IntN(900))}
		if st.Turn == othello.White {
			sc := float64(rng.IntN(21) - 10)
			rem := int64(50000)
			m.Score, m.Depth, m.RemainingMs = &sc, 12, &rem
		}
		if err := st.Play(sq); err != nil {
			t.Fatal(err)
		}
		l.Moves = append(l.Moves, m)
	}
	b, w := st.Discs()
	l.Result = &Result{Black: b, White: w, Winner: WinnerName(st.Winner()), Reason: ReasonEnd}
	return l
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	var legs []Leg
	for i, mode := range []othello.Mode{othello.Std, othello.Anti, othello.Grand, othello.Octagon, othello.Reversi} {
		l := randomLeg(t, mode, uint64(i), 8*(i%2))
		legs = append(legs, l)
		if err := Append(&buf, &l); err != nil {
			t.Fatal(err)
		}
	}
	back, err := Read(&buf)
	if err != nil || len(back) != len(legs) {
		t.Fatalf("read %d legs: %v", len(back), err)
	}
	for i := range legs {
		var a, b bytes.Buffer
		Append(&a, &legs[i])
		Append(&b, &back[i])
		if a.String() != b.String() {
			t.Fatalf("leg %d changed:\n%s\n%s", i, a.String(), b.String())
		}
		r, err := back[i].Check()
		if err != nil || len(r.States) != len(back[i].Moves)+1 {
			t.Fatalf("replay %d: %v", i, err)
		}
	}
}

// TestRejects: a record that reads is a legal game; each way of breaking
// one is named.
func TestRejects(t *testing.T) {
	base := randomLeg(t, othello.Std, 7, 0)
	line := func(l Leg) string {
		var b bytes.Buffer
		Append(&b, &l)
		return b.String()
	}
	clone := func(f func(*Leg)) string {
		l := base
		l.Moves = append([]Move(nil), base.Moves...)
		r := *base.Result
		l.Result = &r
		f(&l)
		return line(l)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"version", clone(func(l *Leg) { l.Version = 9 }), "version"},
		{"mode", clone(func(l *Leg) { l.Mode = "chess" }), "game_mode"},
		{"start", clone(func(l *Leg) { l.Start = "xot" }), "opening moves"},
		{"illegal move", clone(func(l *Leg) { l.Moves[0].Move = "a1" }), "illegal"},
		{"not canonical", clone(func(l *Leg) { l.Moves[0].Move = strings.ToUpper(l.Moves[0].Move) }), "SquareName"},
		{"pass with moves", clone(func(l *Leg) { l.Moves[0].Move = "pass" }), "pass"},
		{"wrong discs", clone(func(l *Leg) { l.Result.Black++ }), "board has"},
		{"wrong winner", clone(func(l *Leg) {
			l.Result.Winner = map[string]string{"black": "white", "white": "black", "draw": "black"}[l.Result.Winner]
		}), "winner"},
		{"early end", clone(func(l *Leg) { l.Moves = l.Moves[:10]; l.Result = nil }), ""},
		{"unknown field", `{"version":1,"mode":"std","start":"initial","opening":[],"players":[{},{}],"started":"2026-12-03T10:00:00Z","moves":[],"x":1}`, "unknown field"},
		{"negative time", clone(func(l *Leg) { l.Moves[0].Ms = -1 }), "out of range"},
	} {
		_, err := Read(strings.NewReader(tc.in))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

func TestTranscript(t *testing.T) {
	l := Leg{Opening: []string{"f5", "d6"}, Moves: []Move{{Move: "c3"}, {Move: "pass"}, {Move: "d3"}}}
	if got := l.Transcript(); got != "f5d6c3d3" {
		t.Fatalf("transcript %q", got)
	}
}

func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	l := Leg{Version: Version, Mode: "std", Start: StartInitial, Moves: []Move{{Move: "d3"}, {Move: "c5"}}}
	Append(&b, &l)
	f.Add(b.Bytes())
	f.Add([]byte(`{"version":1,"mode":"grand","start":"random","opening":["e4"],"moves":[]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		legs, err := Read(bytes.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		for i := range legs {
			if err := Append(&out, &legs[i]); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Read(&out)
		if err != nil || len(again) != len(legs) {
			t.Fatalf("legs that read do not read again: %v", err)
		}
	})
}
