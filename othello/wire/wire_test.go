package wire

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/othello"
)

// Kinds in the tables below.
const (
	ErrMalformed  = problem.Malformed
	ErrImpossible = problem.Impossible
)

// TestSpecExamples decodes every engine request example of the documents
// (testdata/spec_*.json), checks that these rules produce exactly the
// documented legal_moves, and that the engine answers one of them.
func TestSpecExamples(t *testing.T) {
	files, err := filepath.Glob("testdata/spec_*.json")
	if err != nil || len(files) != 5 {
		t.Fatalf("want 5 spec examples, got %v %v", files, err)
	}
	e := othello.NewEngine(othello.EngineOptions{TTBits: 14, MaxDepth: 4})
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		req, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p, err := req.Position()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := p.State.LegalMoves(); !slices.Equal(got, req.LegalMoves) {
			t.Errorf("%s: rules give %v, document %v", f, got, req.LegalMoves)
		}
		d := e.Choose(context.Background(), p)
		if !slices.Contains(req.LegalMoves, d.Move) {
			t.Errorf("%s: move %d not in %v", f, d.Move, req.LegalMoves)
		}
	}
}

func validReq() string {
	return `{"board":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,1,0,0,0,0,0,0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],` +
		`"color":1,"legal_moves":[19,26,37,44],"game_mode":"std","board_size":8,"blocked_squares":[],"placed":{"1":0,"2":0},` +
		`"remaining_ms":60000,"match_id":123,"leg":0,"revision":0,"history":[],"round_no":null,"room_created_at":null,"budget_ms":10000}`
}

func TestRequestErrors(t *testing.T) {
	board8 := "[" + strings.TrimSuffix(strings.Repeat("0,", 64), ",") + "]"
	tests := []struct {
		name string
		body string
		want problem.Kind
	}{
		{"empty", "", ErrMalformed},
		{"not json", "hello", ErrMalformed},
		{"array", "[1,2]", ErrMalformed},
		{"trailing", validReq() + " {}", ErrMalformed},
		{"board type", `{"board":"x","color":1,"legal_moves":[],"game_mode":"std"}`, ErrMalformed},
		{"color type", `{"board":` + board8 + `,"color":"black","legal_moves":[],"game_mode":"std"}`, ErrMalformed},
		{"move type", `{"board":` + board8 + `,"color":1,"legal_moves":["d3"],"game_mode":"std"}`, ErrMalformed},
		{"no board", `{"color":1,"legal_moves":[],"game_mode":"std"}`, ErrMalformed},
		{"no mode", `{"board":` + board8 + `,"color":1,"legal_moves":[]}`, ErrMalformed},
		{"no legal", `{"board":` + board8 + `,"color":1,"game_mode":"std"}`, ErrMalformed},
		{"null legal", `{"board":` + board8 + `,"color":1,"game_mode":"std","legal_moves":null}`, ErrMalformed},
		{"bad mode", `{"board":` + board8 + `,"color":1,"legal_moves":[],"game_mode":"chess"}`, ErrImpossible},
		{"size mismatch", `{"board":` + board8 + `,"color":1,"legal_moves":[],"game_mode":"grand","board_size":10}`, ErrImpossible},
		{"board_size wrong", `{"board":` + board8 + `,"color":1,"legal_moves":[],"game_mode":"std","board_size":10}`, ErrImpossible},
		{"color 3", `{"board":` + board8 + `,"color":3,"legal_moves":[],"game_mode":"std"}`, ErrImpossible},
		{"cell 7", `{"board":[7` + strings.Repeat(",0", 63) + `],"color":1,"legal_moves":[],"game_mode":"std"}`, ErrImpossible},
		{"move out", `{"board":` + board8 + `,"color":1,"legal_moves":[64],"game_mode":"std"}`, ErrImpossible},
		{"move negative", `{"board":` + board8 + `,"color":1,"legal_moves":[-1],"game_mode":"std"}`, ErrImpossible},
		{"move twice", `{"board":` + board8 + `,"color":1,"legal_moves":[3,3],"game_mode":"std"}`, ErrImpossible},
		{"move occupied", `{"board":[1` + strings.Repeat(",0", 63) + `],"color":1,"legal_moves":[0],"game_mode":"std"}`, ErrImpossible},
		{"blocked list", `{"board":[` + strings.TrimSuffix(strings.Repeat("0,", 100), ",") + `],"color":1,"legal_moves":[],"game_mode":"octagon","blocked_squares":[0]}`, ErrImpossible},
		{"disc on blocked", `{"board":[1` + strings.Repeat(",0", 99) + `],"color":1,"legal_moves":[],"game_mode":"octagon"}`, ErrImpossible},
		{"move on blocked", `{"board":[` + strings.TrimSuffix(strings.Repeat("0,", 100), ",") + `],"color":1,"legal_moves":[99],"game_mode":"octagon"}`, ErrImpossible},
		{"placed key", `{"board":` + board8 + `,"color":1,"legal_moves":[],"game_mode":"std","placed":{"3":1}}`, ErrImpossible},
		{"reversi placed", `{"board":[1` + strings.Repeat(",0", 63) + `],"color":1,"legal_moves":[],"game_mode":"reversi","placed":{"1":5,"2":5}}`, ErrImpossible},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := Decode([]byte(tc.body))
			if err == nil {
				_, err = req.Position()
			}
			if problem.KindOf(err) != tc.want {
				t.Fatalf("error %v (%v), want %v", err, problem.KindOf(err), tc.want)
			}
		})
	}
}

func TestEmptyLegalPasses(t *testing.T) {
	req, err := Decode([]byte(strings.Replace(validReq(), "[19,26,37,44]", "[]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := req.Position()
	if err != nil {
		t.Fatal(err)
	}
	if d := othello.NewEngine(othello.EngineOptions{}).Choose(context.Background(), p); d.Move != othello.Pass {
		t.Fatalf("move %d with no legal moves", d.Move)
	}
}

// TestTrustsServerLegalMoves: when the server's list differs from these
// rules, the answer still comes from the server's list.
func TestTrustsServerLegalMoves(t *testing.T) {
	req, _ := Decode([]byte(strings.Replace(validReq(), "[19,26,37,44]", "[0,63]", 1)))
	p, err := req.Position()
	if err != nil {
		t.Fatal(err)
	}
	d := othello.NewEngine(othello.EngineOptions{MaxDepth: 3}).Choose(context.Background(), p)
	if d.Move != 0 && d.Move != 63 {
		t.Fatalf("move %d not from the server's list", d.Move)
	}
}

// FuzzDecodeRequest: any input either fails as Malformed or Impossible,
// or yields a position for which the engine answers a listed move (or −1
// for an empty list), fast.
func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(validReq()))
	if files, _ := filepath.Glob("testdata/spec_*.json"); len(files) > 0 {
		for _, fn := range files {
			if b, err := os.ReadFile(fn); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"board":[],"legal_moves":[]}`))
	f.Add([]byte(`{"legal_moves":[1e400]}`))
	e := othello.NewEngine(othello.EngineOptions{TTBits: 12, MaxDepth: 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		req, err := Decode(b)
		if err != nil {
			if problem.KindOf(err) != problem.Malformed {
				t.Fatalf("decode error %v is not Malformed", err)
			}
			return
		}
		p, err := req.Position()
		if err != nil {
			if k := problem.KindOf(err); k != problem.Malformed && k != problem.Impossible {
				t.Fatalf("validate error %v has kind %v", err, k)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		d := e.Choose(ctx, p)
		if len(p.Legal) == 0 {
			if d.Move != othello.Pass {
				t.Fatalf("move %d with empty legal_moves", d.Move)
			}
		} else if !slices.Contains(p.Legal, d.Move) {
			t.Fatalf("move %d not in %v", d.Move, p.Legal)
		}
	})
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		in   string
		size int
		want int
		ok   bool
	}{
		{`{"move":19}`, 8, 19, true}, {`{"move": "d3"}`, 8, 19, true}, {`{"move":"D3"}`, 8, 19, true},
		{`{"move":-1}`, 8, -1, true}, {`{"move":"pass"}`, 8, -1, true}, {`{"move":"J0"}`, 10, 99, true},
		{`{"move":64}`, 8, 0, false}, {`{"move":-2}`, 8, 0, false}, {`{"move":"z9"}`, 8, 0, false},
		{`{"mv":3}`, 8, 0, false}, {`3`, 8, 0, false}, {``, 8, 0, false}, {`{"move":1.5}`, 8, 0, false},
		{`{"move":[1]}`, 8, 0, false},
	}
	for _, tc := range tests {
		a, err := ParseReply([]byte(tc.in), tc.size)
		got := a.Move
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseReply(%q) = %d, %v", tc.in, got, err)
		}
		if err != nil && problem.KindOf(err) != problem.Malformed {
			t.Errorf("ParseReply(%q) error %v is not Malformed", tc.in, err)
		}
	}
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{`{"move":19}`, `{"move":"d3"}`, `{"move":-1}`, `{"move":"J0"}`, `{}`, `{"move":1e99}`} {
		f.Add([]byte(s), 8)
		f.Add([]byte(s), 10)
	}
	f.Fuzz(func(t *testing.T, b []byte, size int) {
		if size != 8 && size != 10 {
			return
		}
		a, err := ParseReply(b, size)
		m := a.Move
		if err == nil && (m < -1 || m >= size*size) {
			t.Fatalf("ParseReply(%q) = %d outside the board", b, m)
		}
	})
}

// TestPondering: a pondering engine answers a whole game with legal moves
// (its ponder stopped before each search), in std and in a mode that
// does not ponder, and Close stops a ponder that would otherwise search
// on: a time-managed ponder has no depth to stop at.
func TestPondering(t *testing.T) {
	for _, mode := range []othello.Mode{othello.Std, othello.Grand} {
		e := &Pondering{E: othello.NewEngine(othello.EngineOptions{TTBits: 14, FixedTime: 5 * time.Millisecond, Pool: 1})}
		st := othello.NewState(mode)
		for !st.Over() {
			req := NewRequest(st, 60*time.Second, 50*time.Millisecond, 1, 0, 0)
			a, err := e.Move(context.Background(), req, 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Play(a.Move); err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
