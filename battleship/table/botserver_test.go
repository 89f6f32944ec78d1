package table

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/gamebot/battleship/record"
)

// fakeBot is a botsarena bot written from the arena's documentation, not
// from this module's types: it answers init with the fleet its URL names
// (?fleet=a or b) and fires at the board in reading order; ?bad=K makes
// its K-th shot (from 1) fall off the board, ?odd=K writes its K-th shot
// with a leading zero (the arena records it as sent; it never hits). It
// keeps every message it was sent.
type fakeBot struct {
	*httptest.Server
	mu   sync.Mutex
	msgs []map[string]any
	hdrs []http.Header
}

var fakeFleets = map[string][]string{
	// 6x4, a 3-ship and a 2-ship: the same 3-ship in both, the 2-ship
	// elsewhere.
	"a": {"0,0-2,0", "4,2-5,2"},
	"b": {"2,0-0,0", "0,3-1,3"},
}

func newFakeBot(t *testing.T) *fakeBot {
	f := &fakeBot{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Errorf("the bot got %q: %v", body, err)
		}
		f.mu.Lock()
		f.msgs = append(f.msgs, m)
		f.hdrs = append(f.hdrs, r.Header.Clone())
		f.mu.Unlock()
		q := r.URL.Query()
		switch m["action"] {
		case "init":
			boats, _ := json.Marshal(fakeFleets[q.Get("fleet")])
			fmt.Fprintf(w, `{"name":"fake","boats":%s}`, boats)
		case "play-turn":
			b := m["board"].(map[string]any)
			width, _ := strconv.Atoi(b["width"].(string))
			k := len(b["your_strikes"].([]any))
			x, y := k%width, k/width
			switch strconv.Itoa(k + 1) {
			case q.Get("bad"):
				x = width
			case q.Get("odd"):
				fmt.Fprintf(w, `{"play":"0%d,%d"}`, x, y)
				return
			}
			fmt.Fprintf(w, `{"play":"%d,%d"}`, x, y)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeBot) messages() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.msgs)
}

const fakeBoard = `"width": 6, "height": 4, "ship1": 0, "ship2": 1, "ship3": 1, "ship4": 0, "ship5": 0`

// startAgainst sets a table against the bot at url and places the
// person's fleet (a 3-ship down the last column, a 2-ship across the last
// row); it returns the table and its version once both fleets are placed.
func startAgainst(t *testing.T, ts *testServer, url, first string) (string, int) {
	t.Helper()
	id := ts.create(t, `{`+fakeBoard+`, "opponent": "url", "url": "`+url+`", "first": "`+first+`", "pace_ms": 0, "seed": 9}`)
	seq, _ := ts.until(t, id, func(v View) bool { return v.Phase == phaseOver || strings.Contains(logText(v), "has placed its fleet") })
	for _, a := range []string{`{"type": "place", "x": 5, "y": 0, "len": 3, "vertical": true}`, `{"type": "place", "x": 2, "y": 3, "len": 2}`, `{"type": "start"}`} {
		if code, b := ts.act(t, id, seq, a); code != 200 {
			return id, seq // the game may be over (a bot that lost at init)
		} else {
			var vb struct{ Seq int }
			json.Unmarshal(b, &vb)
			seq = vb.Seq
		}
	}
	return id, seq
}

// TestNoLeak: what the person's seat is sent depends on the bot's fleet
// only through the answers to the person's shots. Two tables whose bots
// hide different fleets, driven alike, with shots whose answers are the
// same against both fleets, send the person the same bytes at every
// version, refusals included; and until the game is over no answer
// carries the bot's ships, and the review and the record are refused.
func TestNoLeak(t *testing.T) {
	bot := newFakeBot(t)
	runs := [2]map[int]string{}
	for i, fleet := range []string{"a", "b"} {
		ts := newTestServer(t, Config{}, "")
		url := bot.URL + "/bot?fleet=" + fleet
		id, _ := startAgainst(t, ts, url, "you")
		var seq int
		// A sunk 3-ship, then misses against both fleets.
		for _, a := range []string{`{"x": 0, "y": 0}`, `{"x": 1, "y": 0}`, `{"at": "2,0"}`, `{"x": 3, "y": 3}`, `{"x": 5, "y": 0}`} {
			seq, _ = ts.until(t, id, func(v View) bool { return v.Turn == "you" })
			ts.mustAct(t, id, seq, `{"type": "shoot", `+a[1:])
		}
		seq, v := ts.until(t, id, func(v View) bool { return v.Turn == "you" && len(v.AtMe) == 5 })
		if v.SunkByYou != 1 || v.BotShips != nil {
			t.Fatalf("fleet %s: %+v", fleet, v)
		}
		ts.act(t, id, seq, `{"type": "shoot", "x": 1, "y": 0}`)   // refused: fired at
		ts.act(t, id, seq-3, `{"type": "shoot", "x": 4, "y": 3}`) // refused: stale
		for _, p := range []string{"review", "record"} {
			if code, _ := ts.call(t, "GET", "/play/tables/"+id+"/"+p, ""); code != http.StatusConflict {
				t.Errorf("the %s during the game: %d", p, code)
			}
		}
		runs[i] = map[int]string{}
		refusals := 0
		for k, s := range ts.answers() {
			body := strings.ReplaceAll(string(s.Body), url, "URL")
			if strings.Contains(body, "bot_ships") {
				t.Errorf("fleet %s: answer %d (%s) carries the bot's ships: %s", fleet, k, s.Path, body)
			}
			var vb struct {
				Seq  *int
				View json.RawMessage
			}
			switch {
			case strings.HasSuffix(s.Path, "/battleship/tables"): // the new table's id
			case json.Unmarshal(s.Body, &vb) == nil && vb.Seq != nil && vb.View != nil:
				// The view, not the answer's time stamp.
				runs[i][*vb.Seq] = strings.ReplaceAll(string(vb.View), url, "URL")
			default:
				refusals++
				runs[i][-refusals] = fmt.Sprintf("%s %d %s", s.Path[strings.LastIndex(s.Path, "/"):], s.Status, body)
			}
		}
	}
	same := 0
	for k, a := range runs[0] {
		if b, ok := runs[1][k]; ok {
			same++
			if a != b {
				t.Errorf("answer %d depends on the bot's hidden fleet:\n%s\n%s", k, a, b)
			}
		}
	}
	if same < 15 {
		t.Errorf("only %d answers compared", same)
	}
}

// TestBotServerOpponent: a botsarena bot by URL is asked as the arena
// asks (its messages, key for key) and judged as the arena judges: an odd
// shot is recorded as sent and never hits, a shot off the board loses at
// once, a bot that does not answer loses at init; the record reads back.
func TestBotServerOpponent(t *testing.T) {
	bot := newFakeBot(t)
	ts := newTestServer(t, Config{}, "")
	id, _ := startAgainst(t, ts, bot.URL+"/bot?fleet=a&odd=2", "bot")
	v := ts.playOut(t, id)
	if v.Result == nil || !v.Result.Won || len(v.AtMe) < 2 || v.AtMe[1].Target != "01,0" || v.AtMe[1].R != "miss" {
		t.Fatalf("a whole game against the bot server: %+v", v)
	}
	msgs := bot.messages()
	init, turn := msgs[0], msgs[len(msgs)-1]
	if init["action"] != "init" || init["game"] != "battleship" || init["players"] != 2.0 || init["player-index"] != 0.0 {
		t.Errorf("init: %v", init)
	}
	b := init["board"].(map[string]any)
	if b["width"] != "6" || b["ship3"] != "1" || b["opponent"] != "guest" {
		t.Errorf("init's board: %v", b)
	}
	if _, ok := turn["players"]; ok || turn["game"] != "Battleship" || turn["game-id"] != init["game-id"] {
		t.Errorf("play-turn: %v", turn)
	}
	tb := turn["board"].(map[string]any)
	yours, his := tb["your_strikes"].([]any), tb["his_strikes"].([]any)
	if len(yours) != len(v.AtMe)-1 || len(his) != len(v.AtBot)-1 || yours[1].(map[string]any)["target"] != "01,0" {
		t.Errorf("the last play-turn's histories: %d and %d strikes for %d and %d shots", len(yours), len(his), len(v.AtMe), len(v.AtBot))
	}
	for _, h := range bot.hdrs {
		if h.Get("Content-Type") != "application/json" || h.Get("Accept") != "*/*" {
			t.Errorf("headers %v", h)
		}
	}
	code, rec := ts.call(t, "GET", "/play/tables/"+id+"/record", "")
	d, err := record.ReadDuel(strings.NewReader(string(rec)))
	if code != 200 || err != nil {
		t.Fatalf("record: %d %v", code, err)
	}
	if d.Header.HTTP != [2]bool{true, false} || d.Header.SubjectSeat != 1 || d.FleetMS[0] <= 0 || d.Shots[2].Target != "01,0" {
		t.Errorf("record %+v, fleet ms %v, third shot %+v", d.Header, d.FleetMS, d.Shots[2])
	}

	// A shot off the board loses the game at once.
	id, _ = startAgainst(t, ts, bot.URL+"/bot?fleet=b&bad=2", "you")
	v = ts.playOut(t, id)
	if !v.Result.Won || len(v.AtMe) != 1 || !strings.Contains(v.Result.Why, "off the 6x4 board") {
		t.Errorf("a bot that fires off the board: %+v", v.Result)
	}
	_, rec = ts.call(t, "GET", "/play/tables/"+id+"/record", "")
	if d, err := record.ReadDuel(strings.NewReader(string(rec))); err != nil || !strings.HasPrefix(d.End.Invalid, "play-turn: ") {
		t.Errorf("record of an invalid shot: %v %+v", err, d)
	}
	// A bot that does not answer loses at init.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	id, _ = startAgainst(t, ts, gone.URL, "you")
	_, v = ts.until(t, id, func(v View) bool { return v.Phase == phaseOver })
	if !v.Result.Won || !strings.Contains(v.Result.Why, "fleet is not valid") {
		t.Errorf("a bot that does not answer: %+v", v.Result)
	}
}

// TestWaitForTheBotsFleet: a person ready before the bot server has
// answered init waits (nothing to shoot at), then the game starts with
// its fleet; a table closed while a bot thinks stops waiting for it.
func TestWaitForTheBotsFleet(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"action":"init"`) {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, `{"boats":["0,0-2,0","4,2-5,2"]}`)
			return
		}
		io.WriteString(w, `{"play":"0,0"}`)
	}))
	defer slow.Close()
	ts := newTestServer(t, Config{}, "")
	id := ts.create(t, `{`+fakeBoard+`, "opponent": "url", "url": "`+slow.URL+`", "pace_ms": 0}`)
	seq, _, _ := ts.view(t, id, -1)
	ts.mustAct(t, id, seq, `{"type": "random"}`)
	ts.mustAct(t, id, seq+1, `{"type": "start"}`)
	seq, v, _ := ts.view(t, id, -1)
	if v.Phase != phaseWait || v.Turn != "" {
		t.Fatalf("ready before the bot: %+v", v)
	}
	if code, b := ts.act(t, id, seq, `{"type": "shoot", "x": 0, "y": 0}`); code != http.StatusUnprocessableEntity || !strings.Contains(string(b), "placing its fleet") {
		t.Fatalf("a shot before the bot's fleet: %d %s", code, b)
	}
	close(release)
	_, v = ts.until(t, id, func(v View) bool { return v.Phase == phasePlay })
	if v.Turn != "you" {
		t.Fatalf("the game did not start with the person to shoot: %+v", v)
	}

	// Closing a table whose bot has not answered init yet returns at once.
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // then the server sees the client go
		<-r.Context().Done()
	}))
	defer hang.Close()
	id = ts.create(t, `{`+fakeBoard+`, "opponent": "url", "url": "`+hang.URL+`"}`)
	at, err := ts.Hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	at.Table.Close()
}
