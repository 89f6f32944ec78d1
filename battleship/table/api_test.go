package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/battleship/report"
)

// TestSetup: every setup field is checked, and a refusal names it.
func TestSetup(t *testing.T) {
	ts := newTestServer(t, Config{}, "")
	for _, tt := range []struct {
		options string
		status  int
		has     string
	}{
		{`{}`, 201, ""},
		{`{"width": 100, "height": 100, "ship1": 10, "ship2": 10, "ship3": 10, "ship4": 10, "ship5": 10, "ship6": 10, "pace_ms": 0}`, 201, ""},
		{`{"width": 6, "height": 2, "ship1": 0, "ship2": 0, "ship3": 0, "ship4": 0, "ship5": 0, "ship6": 1}`, 201, ""},
		{`{"width": 0}`, 400, "Width: 0 is out of 1..100"},
		{`{"height": 101}`, 400, "Height: 101"},
		{`{"ship3": 11}`, 400, "Ships of 3: 11 is out of 0..10"},
		{`{"ship2": 0, "ship3": 0, "ship4": 0, "ship5": 0}`, 400, "has no ship"},
		{`{"width": 3, "height": 3, "ship2": 0, "ship3": 2, "ship4": 0, "ship5": 0}`, 400, "more than half"},
		{`{"width": 5, "height": 5, "ship2": 0, "ship3": 0, "ship4": 0, "ship5": 0, "ship6": 1}`, 400, "No placement fits this fleet on a 5x5 board"},
		{`{"opponent": "stupd"}`, 400, "Opponent \\\"stupd\\\": choose engine"},
		{`{"opponent": "dreadnought"}`, 201, ""},
		{`{"opponent": "url", "url": "ftp://x"}`, 400, "url"},
		{`{"opponent": "url"}`, 400, "url"},
		{`{"first": "me"}`, 400, "Who shoots first"},
		{`{"pace_ms": -1}`, 400, "pace, ms: -1 is out of 0..10000"},
		{`{"name": "` + strings.Repeat("n", 41) + `"}`, 400, "Your name: at most 40"},
		{`{"width": "ten"}`, 400, "width"},
		{`{"widht": 10}`, 400, `unknown field \"widht\"`},
		{`{"opponent": "url", "url": "http://bots.example.invalid:5063/battleship"}`, 403, "bot URLs may name this machine"},
		{`{"opponent": "url", "url": "http://me:pw@127.0.0.1:5063/battleship"}`, 400, "no user name or password"},
		{`[1]`, 400, "malformed"},
	} {
		code, b := ts.call(t, "POST", "/play/api/battleship/tables", tt.options)
		if code != tt.status || !strings.Contains(string(b), tt.has) {
			t.Errorf("%s: %d %s, want %d with %q", tt.options, code, b, tt.status, tt.has)
		}
	}
}

// TestGameByHTTP plays a whole game through the API against our bot on a
// small board: every refusal on the way (stale 409, illegal 422 with the
// valid options, unknown 404) changes nothing; the record is written,
// reads back with the referee's reader and renders as its report; the
// map behind each of the bot's shots names the cell it shot.
func TestGameByHTTP(t *testing.T) {
	dir := t.TempDir()
	ts := newTestServer(t, Config{}, dir)
	id := ts.create(t, `{"width": 5, "height": 4, "ship1": 1, "ship2": 0, "ship3": 1, "ship4": 0, "ship5": 0, "pace_ms": 0, "seed": 3, "name": "Ana"}`)
	seq, v := ts.until(t, id, func(v View) bool { return strings.Contains(logText(v), "has placed its fleet") })
	if v.Phase != phasePlace || fmt.Sprint(v.Left) != "[3 1]" || v.Seat != 0 || v.Bot != "gamebot" {
		t.Fatalf("a new table: %+v", v)
	}
	refused := func(name, action string, seq, status int, has string) {
		t.Helper()
		_, _, before := ts.view(t, id, -1)
		code, b := ts.act(t, id, seq, action)
		if code != status || !strings.Contains(string(b), has) {
			t.Errorf("%s: %d %s, want %d with %q", name, code, b, status, has)
		}
		if _, _, after := ts.view(t, id, -1); !bytes.Equal(before, after) {
			t.Errorf("%s changed the table:\n%s\n%s", name, before, after)
		}
	}
	ts.mustAct(t, id, seq, `{"type": "place", "x": 0, "y": 0, "len": 3}`)
	seq++
	refused("overlap", `{"type": "place", "x": 0, "y": 0, "len": 1}`, seq, 422, `"valid":["3,0-3,0"`)
	refused("off the board", `{"type": "place", "x": 5, "y": 0, "len": 1}`, seq, 422, "off the 5x4 board")
	refused("a length not left", `{"type": "place", "x": 4, "y": 3, "len": 3}`, seq, 422, `"valid":[1]`)
	refused("no ship there", `{"type": "remove", "x": 4, "y": 3}`, seq, 422, `"valid":["0,0-2,0"]`)
	refused("start too early", `{"type": "start"}`, seq, 422, "not complete")
	refused("shoot while placing", `{"type": "shoot", "x": 1, "y": 1}`, seq, 422, `"valid":["place","remove","clear","random","bot","start"]`)
	refused("stale", `{"type": "place", "x": 4, "y": 3, "len": 1}`, seq-1, 409, "stale")
	refused("unknown action", `{"type": "resign"}`, seq, 422, "not possible now")
	refused("malformed", `{"type": "place", "len": 1}`, seq, 400, "place")
	if code, b := ts.act(t, "NOPE", 0, `{"type": "start"}`); code != 404 {
		t.Errorf("unknown table: %d %s", code, b)
	}
	for _, p := range []string{"review", "record"} {
		if code, b := ts.call(t, "GET", "/play/tables/"+id+"/"+p, ""); code != http.StatusConflict {
			t.Errorf("the %s of a game in play: %d %.80s", p, code, b)
		}
	}
	// Random, the bot's placement and clear replace the fleet; then by hand.
	for _, a := range []string{`{"type": "random"}`, `{"type": "bot"}`, `{"type": "clear"}`} {
		ts.mustAct(t, id, seq, a)
		seq++
	}
	ts.mustAct(t, id, seq, `{"type": "place", "x": 4, "y": 1, "len": 3, "vertical": true}`)
	ts.mustAct(t, id, seq+1, `{"type": "place", "x": 0, "y": 3, "len": 1}`)
	ts.mustAct(t, id, seq+2, `{"type": "start"}`)
	seq, v = ts.until(t, id, func(v View) bool { return v.Phase == phasePlay })
	if v.Turn != "you" || fmt.Sprint(v.Mine) != "[{4 1 3 true} {0 3 1 false}]" {
		t.Fatalf("after start: %+v", v)
	}
	ts.mustAct(t, id, seq, `{"type": "shoot", "at": " 2, 2"}`)
	seq, v = ts.until(t, id, func(v View) bool { return v.Turn == "you" })
	if len(v.AtBot) != 1 || v.AtBot[0].X != 2 || v.AtBot[0].Y != 2 || len(v.AtMe) != 1 {
		t.Fatalf("after a typed shot and the bot's: %+v", v)
	}
	refused("the same cell again", `{"type": "shoot", "x": 2, "y": 2}`, seq, 422, `"valid":["0,0","1,0"`)
	refused("off the board", `{"type": "shoot", "x": 5, "y": 0}`, seq, 422, "off the 5x4 board")
	refused("not a cell", `{"type": "shoot", "at": "b3"}`, seq, 422, "not a cell")
	refused("explain during the game", `{"type": "explain", "shot": 0}`, seq, 422, `"valid":["shoot"]`)
	v = ts.playOut(t, id)
	seq, v = ts.until(t, id, func(v View) bool { return v.Explain != nil && v.Explain.Of == len(v.AtMe) })
	if v.Result == nil || len(v.BotShips) != 2 || v.Result.Shots != [2]int{len(v.AtBot), len(v.AtMe)} {
		t.Fatalf("the end: %+v", v)
	}
	// The map of each of the bot's shots names the cell it shot.
	for k := range v.AtMe {
		if k > 0 {
			ts.mustAct(t, id, seq, fmt.Sprintf(`{"type": "explain", "shot": %d}`, k))
			seq, v, _ = ts.view(t, id, -1)
		}
		e := v.Explain
		if e.Shot != k || e.X != v.AtMe[k].X || e.Y != v.AtMe[k].Y || len(e.Map) != 20 || e.P <= 0 || e.P > e.Best || e.R != v.AtMe[k].R {
			t.Fatalf("map of the bot's shot %d (%+v): %+v", k, v.AtMe[k], e)
		}
		if e.Map[e.Y*5+e.X] == 0 {
			t.Errorf("shot %d: the cell shot has no weight in the map", k)
		}
	}
	refused("a shot with no map", fmt.Sprintf(`{"type": "explain", "shot": %d}`, len(v.AtMe)), seq, 422, "no map")

	// The record: served, written to the folder, read by battleref's
	// reader, shown and reported.
	code, rec := ts.call(t, "GET", "/play/tables/"+id+"/record", "")
	if code != 200 {
		t.Fatalf("record: %d %s", code, rec)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "battleship", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("records written: %v", files)
	}
	d, err := record.FindDuel(filepath.Join(dir, "battleship"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.End == nil || d.End.Winner == nil || d.Header.Players != [2]string{"Ana", "gamebot"} || len(d.Shots) != len(v.AtBot)+len(v.AtMe) {
		t.Fatalf("the record read back: %+v %+v", d.Header, d.End)
	}
	if want := v.Result.Won; (*d.End.Winner == 0) != want {
		t.Errorf("the record's winner %d, the view's won %v", *d.End.Winner, want)
	}
	var show, page bytes.Buffer
	referee.ShowDuel(&show, d)
	if !strings.Contains(show.String(), "Ana vs gamebot") {
		t.Errorf("battleref show: %s", show.String())
	}
	if err := report.Write(&page, []*record.Duel{d}, report.Options{}); err != nil {
		t.Fatal(err)
	}
	code, review := ts.call(t, "GET", "/play/tables/"+id+"/review", "")
	if code != 200 || !bytes.Contains(review, []byte("Duel viewer")) || !bytes.Contains(review, []byte("Ana vs gamebot")) {
		t.Fatalf("review: %d %.200s", code, review)
	}
}

// TestMapBudget: on a large board the maps stop being kept past the
// table's budget; the review says so rather than growing without bound.
func TestMapBudget(t *testing.T) {
	g := &game{s: setup{r: battleship.Rules{W: 100, H: 100, Fleet: battleship.Fleet{0, 1}}}, env: testEnv()}
	g.mapsB = mapBudget - 100*100 + 1
	g.keepMap(&battleship.ShotMap{X: 3, Y: 2, P: make([]float64, 100*100)})
	if len(g.maps) != 1 || g.maps[0].q != nil {
		t.Fatalf("over the budget: %d maps, the last kept: %v", len(g.maps), g.maps[0].q != nil)
	}
}

func logText(v View) string {
	b, _ := json.Marshal(v.Log)
	return string(b)
}

// TestAgentOpponent: one of the referee's agents, named as the registry
// names it, plays a whole game at a table.
func TestAgentOpponent(t *testing.T) {
	ts := newTestServer(t, Config{}, "")
	id := ts.create(t, `{"width": 6, "height": 6, "ship2": 1, "ship3": 1, "ship4": 0, "ship5": 0, "pace_ms": 0, "seed": 2, "opponent": "dreadnought-static"}`)
	seq, _ := ts.until(t, id, func(v View) bool { return strings.Contains(logText(v), "has placed its fleet") })
	ts.mustAct(t, id, seq, `{"type": "random"}`)
	ts.mustAct(t, id, seq+1, `{"type": "start"}`)
	v := ts.playOut(t, id)
	if v.Bot != "dreadnought-static" || v.Result == nil || len(v.BotShips) != 2 || v.Explain != nil {
		t.Fatalf("the end: %+v", v)
	}
	code, rec := ts.call(t, "GET", "/play/tables/"+id+"/record", "")
	d, err := record.ReadDuel(bytes.NewReader(rec))
	if code != 200 || err != nil || d.Header.Players != [2]string{"guest", "dreadnought-static"} || d.End.Winner == nil {
		t.Fatalf("record: %d %v %+v", code, err, d)
	}
}
