package wire

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/internal/problem"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestDecodeGolden decodes the arena's messages (docs/battleship.md §2) and
// the example of the arena's own documentation and compares the engine view with testdata/*.golden.
func TestDecodeGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			req, err := Decode(in)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			got, err := json.MarshalIndent(goldenView(req), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(f, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("decoded view differs from %s:\n got %s\nwant %s", golden, got, want)
			}
		})
	}
}

func goldenView(r *Request) map[string]any {
	v := map[string]any{
		"action": r.Action, "game": r.Game, "game_id": r.GameID, "player_index": r.PlayerIndex,
		"opponent": r.Opponent, "width": r.Rules.W, "height": r.Rules.H, "fleet": r.Rules.Fleet,
		"yours": r.Yours, "his": r.His,
	}
	if r.BoardErr != nil {
		v["board_error"] = r.BoardErr.Error()
	}
	return v
}

func TestDecodeFields(t *testing.T) {
	const std = `"ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"`
	tests := []struct {
		name      string
		body      string
		wantErr   bool // whole-message error (400)
		boardKind problem.Kind
		w, h      int
		action    string
	}{
		{name: "strings", body: `{"action":"init","board":{"width":"10","height":"7",` + std + `}}`, w: 10, h: 7, action: "init"},
		{name: "numbers", body: `{"action":"init","board":{"width":10,"height":7,"ship1":0,"ship2":1,"ship3":2,"ship4":1,"ship5":1,"ship6":0}}`, w: 10, h: 7, action: "init"},
		{name: "php numeric strings", body: `{"action":"play-turn","board":{"width":" 10","height":"1e1",` + std + `}}`, w: 10, h: 10, action: "play-turn"},
		{name: "decimal width allows ceil", body: `{"action":"init","board":{"width":"10.5","height":"10.0",` + std + `}}`, w: 11, h: 10, action: "init"},
		{name: "action case and spaces", body: `{"action":" Play-Turn ","game":"BATTLESHIP","board":{"width":"3","height":"3",` + std + `}}`, w: 3, h: 3, action: "play-turn"},
		{name: "no players, you, game-id string", body: `{"game-id":"abc","action":"play-turn","you":"X","board":{"width":"3","height":"3",` + std + `}}`, w: 3, h: 3, action: "play-turn"},
		{name: "missing board", body: `{"action":"init"}`, boardKind: problem.Malformed, action: "init"},
		{name: "missing width", body: `{"action":"init","board":{"height":"3",` + std + `}}`, boardKind: problem.Malformed, action: "init"},
		{name: "width not numeric", body: `{"action":"init","board":{"width":"ten","height":"3",` + std + `}}`, boardKind: problem.Malformed, action: "init"},
		{name: "width zero", body: `{"action":"init","board":{"width":"0","height":"3",` + std + `}}`, boardKind: problem.Impossible, action: "init"},
		{name: "width 101", body: `{"action":"init","board":{"width":101,"height":"3",` + std + `}}`, boardKind: problem.Impossible, action: "init"},
		{name: "fractional count", body: `{"action":"init","board":{"width":"9","height":"9","ship1":"1.5","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"}}`, boardKind: problem.Impossible, action: "init"},
		{name: "count 1.0 is 1", body: `{"action":"init","board":{"width":"9","height":"9","ship1":"1.0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"}}`, w: 9, h: 9, action: "init"},
		{name: "missing ship6", body: `{"action":"init","board":{"width":"9","height":"9","ship1":"1","ship2":"1","ship3":"2","ship4":"1","ship5":"1"}}`, boardKind: problem.Malformed, action: "init"},
		{name: "unknown action", body: `{"action":"ping"}`, boardKind: problem.Malformed, action: "ping"},
		{name: "not json", body: `hello`, wantErr: true},
		{name: "array", body: `[1,2]`, wantErr: true},
		{name: "empty", body: ``, wantErr: true},
		{name: "trailing data", body: `{"action":"init"} {}`, wantErr: true},
		{name: "board is a string", body: `{"action":"init","board":"x"}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := Decode([]byte(tt.body))
			if tt.wantErr {
				if err == nil || problem.KindOf(err) != problem.Malformed {
					t.Fatalf("err = %v, want a Malformed error", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if req.Action != tt.action {
				t.Errorf("action %q, want %q", req.Action, tt.action)
			}
			if req.BoardErr != nil && problem.KindOf(req.BoardErr) != tt.boardKind || req.BoardErr == nil && tt.boardKind != 0 {
				t.Fatalf("board error %v (kind %v), want kind %v", req.BoardErr, problem.KindOf(req.BoardErr), tt.boardKind)
			}
			if tt.boardKind == 0 && (req.Rules.W != tt.w || req.Rules.H != tt.h) {
				t.Errorf("board %dx%d, want %dx%d", req.Rules.W, req.Rules.H, tt.w, tt.h)
			}
		})
	}
}

func TestDecodeStrikes(t *testing.T) {
	body := `{"action":"play-turn","board":{"width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0",
	"your_strikes":[{"target":"04,2","result":""},{"target":"3,4\n","result":""},{"target":"1,1","result":"hit"},
	  7, null, {"target":5,"result":"hit"}, {"target":"2,2","result":"hit sunk and win"}, {"target":"2,3","result":null}],
	"his_strikes":"[{\"target\":\"0,0\",\"result\":\"\"}]"}}`
	req, err := Decode([]byte(body))
	if err != nil || req.BoardErr != nil {
		t.Fatalf("decode: %v / %v", err, req.BoardErr)
	}
	want := []battleship.Strike{
		{}, {}, {X: 1, Y: 1, OK: true, Result: battleship.Hit}, {}, {}, {Result: battleship.Hit},
		{X: 2, Y: 2, OK: true, Result: battleship.Sunk}, {X: 2, Y: 3, OK: true, Result: battleship.Miss},
	}
	if len(req.Yours) != len(want) {
		t.Fatalf("got %d strikes, want %d: %+v", len(req.Yours), len(want), req.Yours)
	}
	for i := range want {
		if req.Yours[i] != want[i] {
			t.Errorf("strike %d = %+v, want %+v", i, req.Yours[i], want[i])
		}
	}
	if len(req.His) != 1 || !req.His[0].OK {
		t.Errorf("his_strikes given as a JSON string: got %+v", req.His)
	}
}

// FuzzDecodeRequest: any body decodes or fails as Malformed without
// panicking, and a decoded play-turn always gets an in-bounds canonical
// answer from the engine.
func FuzzDecodeRequest(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte(`{"action":"play-turn","board":{"width":"2","height":"1","ship1":"1","ship2":"0","ship3":"0","ship4":"0","ship5":"0","ship6":"0","your_strikes":[{"target":"0,0","result":"hit"},{"target":"0,0","result":""}]}}`))
	f.Add([]byte(`{"action":"init","board":{"width":1e400,"height":"-1"}}`))
	bot := battleship.NewBot(battleship.Options{Target: battleship.TargetOptions{MaxNodes: 2000, MaxWork: 200_000}})
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := Decode(body)
		if err != nil {
			if problem.KindOf(err) != problem.Malformed {
				t.Fatalf("decode error of kind %v: %v", problem.KindOf(err), err)
			}
			return
		}
		if req.BoardErr != nil || req.Rules.Cells() > 400 {
			return
		}
		x, y := bot.PlayTurn(req.Opponent, req.Rules, req.Yours, req.His, 1)
		if x < 0 || y < 0 || x >= req.Rules.W || y >= req.Rules.H {
			t.Fatalf("play %d,%d is not a cell of %dx%d", x, y, req.Rules.W, req.Rules.H)
		}
	})
}

// BenchmarkDecode100x100Full reads the largest play-turn the arena sends:
// 100×100, 60 ships, 9,900 shots on each side.
func BenchmarkDecode100x100Full(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 99))
	hist := func() []map[string]string {
		var out []map[string]string
		for _, c := range rng.Perm(10000)[:9900] {
			out = append(out, map[string]string{"target": battleship.FormatTarget(c%100, c/100), "result": [...]string{"", "", "hit", "hit and sunk"}[rng.IntN(4)]})
		}
		return out
	}
	board := map[string]any{"opponent": "x", "width": "100", "height": "100", "your_strikes": hist(), "his_strikes": hist()}
	for l := 1; l <= battleship.MaxLen; l++ {
		board["ship"+strconv.Itoa(l)] = "10"
	}
	body, _ := json.Marshal(map[string]any{"game": "Battleship", "game-id": 1, "action": "play-turn", "player-index": 0, "board": board})
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(body); err != nil {
			b.Fatal(err)
		}
	}
}
