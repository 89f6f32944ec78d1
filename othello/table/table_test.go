package table

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/report"
	"github.com/botarena/gamebot/othello/wire"
)

// firstMove is a test engine: the first legal move (or a pass), at
// once, with a score and depth to record.
type firstMove struct{ closed bool }

func (f *firstMove) Move(_ context.Context, req *wire.Request, _ time.Duration) (wire.Answer, error) {
	if len(req.LegalMoves) == 0 {
		return wire.Answer{Move: othello.Pass}, nil
	}
	s := 1.5
	return wire.Answer{Move: req.LegalMoves[0], Score: &s, Depth: 3}, nil
}

func (f *firstMove) Close() error { f.closed = true; return nil }

// slowFirst thinks a second, then plays the first legal move.
type slowFirst struct{ firstMove }

func (f *slowFirst) Move(ctx context.Context, req *wire.Request, budget time.Duration) (wire.Answer, error) {
	select {
	case <-time.After(time.Second):
	case <-ctx.Done():
		return wire.Answer{}, ctx.Err()
	}
	return f.firstMove.Move(ctx, req, budget)
}

func testConfig() Config {
	return Config{Engines: []EngineSpec{
		{ID: "first", Title: "first-move", Player: players.Custom("first-move", players.KindEngine, func(players.Leg) (wire.Engine, error) { return &firstMove{}, nil })},
		{ID: "slow", Title: "slow first-move", Player: players.Custom("slow", players.KindEngine, func(players.Leg) (wire.Engine, error) { return &slowFirst{}, nil })},
		OurEngines()[len(OurEngines())-1], // level 1
	}}
}

// client makes a test's requests to a hub served by tabletest.
type client struct {
	t   *testing.T
	srv *tabletest.Server
}

func (c client) do(method, path, body string) (int, []byte) {
	c.t.Helper()
	return c.srv.Call(c.t, method, path, body)
}

type viewBody struct {
	Seq  int  `json:"seq"`
	View View `json:"view"`
}

func (c client) view(id string, after int) viewBody {
	c.t.Helper()
	code, b := c.do("GET", fmt.Sprintf("/play/api/tables/%s?after=%d", id, after), "")
	var v viewBody
	if code != 200 || json.Unmarshal(b, &v) != nil {
		c.t.Fatalf("view: %d %s", code, b)
	}
	return v
}

func newHub(t *testing.T, records string) (*table.Hub, client) {
	t.Helper()
	g, err := Game(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	srv := tabletest.New(t, table.NewHub(table.HubConfig{Records: records}, g))
	return srv.Hub, client{t, srv}
}

func TestSetupRefused(t *testing.T) {
	_, c := newHub(t, "")
	for _, tc := range []struct{ body, want string }{
		{`{"mode":"chess"}`, "game_mode"},
		{`{"mode":"grand","start":"xot"}`, "std openings"},
		{`{"mode":"std","start":"middle"}`, "start"},
		{`{"mode":"std","clock":"blitz"}`, "clock"},
		{`{"mode":"std","colour":"green"}`, "colour"},
		{`{"mode":"std","opponent":"deep-blue"}`, "first, slow, gamebot-1"},
		{`{"mode":"std","table":"watch","b":"nobody"}`, "nobody"},
		{`{"mode":"std","pace":-5}`, "pace"},
		{`{"mode":"std","table":"dance"}`, "table"},
	} {
		code, b := c.do("POST", "/play/api/othello/tables", tc.body)
		if code != 400 || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s, want 400 naming %q", tc.body, code, b, tc.want)
		}
	}
	if code, b := c.do("POST", "/play/api/othello/tables", `{"mode": 3}`); code != 400 {
		t.Errorf("a number for the mode: %d %s", code, b)
	}
}

// TestLegByAPI plays whole legs through the HTTP API in every mode and
// start: every view offers exactly the legal moves, a stale or illegal
// move changes nothing, and the record the table writes is the game, as
// the record reader and the viewer read it.
func TestLegByAPI(t *testing.T) {
	dir := t.TempDir()
	_, c := newHub(t, dir)
	for _, tc := range []struct{ mode, start, colour string }{
		{"std", "initial", "black"}, {"std", "xot", "white"}, {"anti", "random", "black"},
		{"grand", "initial", "white"}, {"octagon", "random", "black"}, {"reversi", "initial", "white"}, {"reversi", "random", "black"},
	} {
		code, b := c.do("POST", "/play/api/othello/tables", fmt.Sprintf(`{"mode":%q,"start":%q,"colour":%q,"opponent":"first","pace":0,"seed":7}`, tc.mode, tc.start, tc.colour))
		if code != 201 {
			t.Fatalf("%+v: %d %s", tc, code, b)
		}
		var cr struct {
			ID string `json:"token"`
		}
		json.Unmarshal(b, &cr)
		v := c.view(cr.ID, -1)
		checked := false
		for moves := 0; !v.View.Over; moves++ {
			if len(v.View.Legs[0].Legal) == 0 {
				v = c.view(cr.ID, v.Seq)
				continue
			}
			leg := v.View.Legs[0]
			if code, b := c.do("GET", "/play/api/tables/"+cr.ID+"?valid=1", ""); code != 200 || strings.Count(string(b), `{"move":`) != len(leg.Legal) {
				t.Fatalf("legal %v, valid %s", leg.Legal, b)
			}
			if !checked {
				checked = true
				before, _ := json.Marshal(v)
				code, b := c.do("POST", "/play/api/tables/"+cr.ID+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, v.Seq-1, leg.Legal[0]))
				if code != 409 {
					t.Fatalf("stale: %d %s", code, b)
				}
				code, b = c.do("POST", "/play/api/tables/"+cr.ID+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":"a1"}}`, v.Seq))
				if code != 422 || !strings.Contains(string(b), leg.Legal[0]) {
					t.Fatalf("illegal: %d %s", code, b)
				}
				if after, _ := json.Marshal(c.view(cr.ID, -1)); string(after) != string(before) {
					t.Fatalf("a refused move changed the table:\n%s\n%s", before, after)
				}
			}
			code, b := c.do("POST", "/play/api/tables/"+cr.ID+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, v.Seq, strings.ToUpper(leg.Legal[len(leg.Legal)-1])))
			if code != 200 {
				t.Fatalf("move %d: %d %s", moves, code, b)
			}
			json.Unmarshal(b, &v)
		}
		if !strings.Contains(v.View.Result, "–") {
			t.Fatalf("result %q", v.View.Result)
		}
		code, b = c.do("GET", "/play/tables/"+cr.ID+"/record", "")
		legs, err := record.Read(strings.NewReader(string(b)))
		if code != 200 || err != nil || len(legs) != 1 || legs[0].Result == nil || legs[0].Result.Reason != record.ReasonEnd || legs[0].Mode != tc.mode {
			t.Fatalf("record: %d, %v: %s", code, err, b)
		}
		if (tc.start == "initial") != (len(legs[0].Opening) == 0) {
			t.Fatalf("start %s with opening %v", tc.start, legs[0].Opening)
		}
		if _, err := report.Build(legs, report.Options{}); err != nil {
			t.Fatal(err)
		}
		if code, page := c.do("GET", "/play/tables/"+cr.ID+"/review", ""); code != 200 || !strings.Contains(string(page), "Leg viewer") {
			t.Fatalf("review: %d", code)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "othello", "othello-*.jsonl"))
	if len(files) != 7 {
		t.Fatalf("%d records written, want 7", len(files))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if _, err := record.Read(strings.NewReader(string(b))); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

// TestWatchMatch: a watched FlipSight match plays both legs from one
// start with the colours swapped; paused, it plays one move a step.
func TestWatchMatch(t *testing.T) {
	_, c := newHub(t, "")
	code, b := c.do("POST", "/play/api/othello/tables", `{"mode":"std","start":"random","table":"watch","a":"first","b":"gamebot-1","pace":0,"seed":3}`)
	if code != 201 {
		t.Fatalf("%d %s", code, b)
	}
	var cr struct {
		ID string `json:"token"`
	}
	json.Unmarshal(b, &cr)
	v := c.view(cr.ID, -1)
	for !v.View.Over {
		v = c.view(cr.ID, v.Seq)
	}
	code, b = c.do("GET", "/play/tables/"+cr.ID+"/record", "")
	legs, err := record.Read(strings.NewReader(string(b)))
	if code != 200 || err != nil || len(legs) != 2 {
		t.Fatalf("record: %v %s", err, b)
	}
	if strings.Join(legs[0].Opening, "") != strings.Join(legs[1].Opening, "") || len(legs[0].Opening) != 8 {
		t.Fatalf("the legs start apart: %v %v", legs[0].Opening, legs[1].Opening)
	}
	if legs[0].Players[0].Name != legs[1].Players[1].Name || legs[0].Match != legs[1].Match || legs[1].LegNo != 1 {
		t.Fatalf("colours not swapped: %+v %+v", legs[0].Players, legs[1].Players)
	}
	if code, b := c.do("POST", "/play/api/tables/"+cr.ID+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":"d3"}}`, v.Seq)); code != 403 {
		t.Fatalf("a move at a watched table: %d %s", code, b)
	}
}

// TestWatchControls: paused, a watched match moves only when stepped.
func TestWatchControls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := Game(testConfig())
		var mu sync.Mutex
		seen := 0
		tb, _, err := g.New(t.Context(), []byte(`{"mode":"std","table":"watch","a":"first","b":"first","pace":100}`), table.Env{ID: "TESTTABLE", Notify: func() { mu.Lock(); seen++; mu.Unlock() }})
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		seq, _ := tb.View(host)
		if err := tb.Act(host, seq, []byte(`{"control":"pause"}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		moves := func() int { return discsOn(tb) }
		before := moves()
		if before != 8 {
			t.Fatalf("%d discs on the boards: the match moved while paused", before)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if moves() != before {
			t.Fatal("a paused match moved")
		}
		seq, _ = tb.View(host)
		if err := tb.Act(host, seq, []byte(`{"control":"step"}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if got := moves(); got != before+1 { // one move: one more disc
			t.Fatalf("a step played %d discs (%d → %d)", got-before, before, got)
		}
		if err := tb.Act(host, 0, []byte(`{"control":"speed","ms":9000}`)); err == nil {
			t.Fatal("a speed of 9 s was taken")
		}
	})
}

// discsOn counts the discs on a table's boards.
func discsOn(tb table.Table) int {
	_, v := tb.View(host)
	n := 0
	for _, l := range v.(View).Legs {
		n += strings.Count(l.Cells, "x") + strings.Count(l.Cells, "o")
	}
	return n
}

// TestPauseHoldsMoves: moves found after a pause (the searches were
// running when it came) are held: paused, the boards do not change, and a
// step is exactly one move.
func TestPauseHoldsMoves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := Game(testConfig())
		tb, _, err := g.New(t.Context(), []byte(`{"mode":"std","table":"watch","a":"slow","b":"slow","pace":0}`), table.Env{ID: "TESTTABLE", Notify: func() {}})
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		discs := func() int { return discsOn(tb) }
		time.Sleep(500 * time.Millisecond) // both legs' first movers are thinking
		synctest.Wait()
		seq, _ := tb.View(host)
		if err := tb.Act(host, seq, []byte(`{"control":"pause"}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if got := discs(); got != 8 {
			t.Fatalf("%d discs after the pause, want the 8 of the start: a move found after it was played", got)
		}
		for want := 9; want <= 11; want++ {
			seq, _ = tb.View(host)
			if err := tb.Act(host, seq, []byte(`{"control":"step"}`)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(3 * time.Second)
			synctest.Wait()
			if got := discs(); got != want {
				t.Fatalf("after %d steps %d discs, want %d", want-8, got, want)
			}
		}
	})
}

// TestClockRunsOut: the person's FlipSight clock, under virtual time.
func TestClockRunsOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := Game(testConfig())
		tb, _, err := g.New(t.Context(), []byte(`{"mode":"std","clock":"flipsight","opponent":"first","pace":0}`), table.Env{ID: "TESTTABLE", Notify: func() {}})
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		time.Sleep(FlipSightClock - time.Second)
		synctest.Wait()
		_, v := tb.View(host)
		if v.(View).Over || *v.(View).Legs[0].Players[0].ClockMs != 1000 {
			t.Fatalf("after 59 s: over %v, clock %d", v.(View).Over, *v.(View).Legs[0].Players[0].ClockMs)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		_, v = tb.View(host)
		if !v.(View).Over || !strings.Contains(v.(View).Result, "timeout") {
			t.Fatalf("after 61 s: %+v", v.(View).Result)
		}
	})
}

func TestPageWeight(t *testing.T) {
	g, err := Game(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	w := g.Weight()
	if w > 60<<10 {
		t.Fatalf("the Othello table page loads %d bytes, more than 60 KB", w)
	}
	t.Logf("the page weighs %d bytes", w)
}

// host is the creator of a table, watching or at the board.
var host = table.Viewer{Seat: table.Host}

// TestFriend: the setup may keep the other colour for a person, whose
// link the creator passes on; both play a whole leg by their tokens, each
// offered moves only on their own turn, and a watcher's link moves
// nothing.
func TestFriend(t *testing.T) {
	_, c := newHub(t, "")
	cr := c.srv.CreateTable(t, "othello", `{"mode":"std","start":"random","colour":"white","opponent":"person","seed":11}`)
	if len(cr.Seats) != 1 || cr.Seats[0].Name != "Black" || cr.Watch == "" {
		t.Fatalf("the links to pass on: %+v", cr)
	}
	tokens := map[int]string{othello.White: cr.Token, othello.Black: tabletest.Token(cr.Seats[0].URL)}
	watch := tabletest.Token(cr.Watch)
	v := c.view(tokens[othello.Black], -1)
	if v.View.You != othello.Black || !v.View.Play || v.View.Controls || v.View.Legs[0].Players[0].Name != "you" || v.View.Legs[0].Players[1].Name != "your friend" {
		t.Fatalf("the friend's view: %+v", v.View)
	}
	for moves := 0; !v.View.Over; moves++ {
		turn := v.View.Legs[0].Turn
		mover, other := tokens[turn], tokens[3-turn]
		v = c.view(mover, -1)
		if len(v.View.Legs[0].Legal) == 0 { // the leg has not asked yet
			v = c.view(mover, v.Seq)
			continue
		}
		if o := c.view(other, -1); len(o.View.Legs[0].Legal) != 0 || o.View.Headline == "Your move." {
			t.Fatalf("move %d: the other person is offered %v", moves, o.View.Legs[0].Legal)
		}
		move := v.View.Legs[0].Legal[0]
		for _, tok := range []string{other, watch} {
			if code, b := c.do("POST", "/play/api/tables/"+tok+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, v.Seq, move)); code != 422 && code != 403 {
				t.Fatalf("move %d by another token: %d %s", moves, code, b)
			}
		}
		code, b := c.do("POST", "/play/api/tables/"+mover+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, v.Seq, move))
		if code != 200 {
			t.Fatalf("move %d: %d %s", moves, code, b)
		}
		json.Unmarshal(b, &v)
	}
	code, b := c.do("GET", "/play/tables/"+cr.Token+"/record", "")
	legs, err := record.Read(strings.NewReader(string(b)))
	if code != 200 || err != nil || legs[0].Players[0] != (record.Player{Name: "friend", Kind: "person"}) || legs[0].Players[1] != (record.Player{Name: "you", Kind: "person"}) {
		t.Fatalf("record %d %v: %s", code, err, b)
	}
}

// TestControlsWhereTheyAct: the view offers pause, step and speed to the
// creator of a watched match only, the move form only to a person who
// plays, and the next game's setup to the creator once it is over.
func TestControlsWhereTheyAct(t *testing.T) {
	_, c := newHub(t, "")
	w := c.srv.CreateTable(t, "othello", `{"mode":"anti","table":"watch","a":"first","b":"first","pace":5000}`)
	host, watcher := c.view(w.Token, -1), c.view(tabletest.Token(w.Watch), -1)
	if !host.View.Controls || host.View.Play || watcher.View.Controls || watcher.View.Play || !strings.HasPrefix(host.View.Game, "anti — anti-Othello: fewer discs wins") {
		t.Fatalf("watching: the host %+v, a watcher %+v", host.View, watcher.View)
	}
	if code, _ := c.do("POST", "/play/api/tables/"+tabletest.Token(w.Watch)+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"control":"pause"}}`, watcher.Seq)); code != 403 {
		t.Fatalf("a watcher paused: %d", code)
	}
	p := c.srv.CreateTable(t, "othello", `{"mode":"std","opponent":"first","pace":0,"colour":"black"}`)
	v := c.view(p.Token, -1)
	if v.View.Controls || !v.View.Play || v.View.You != othello.Black || v.View.Again != nil {
		t.Fatalf("playing: %+v", v.View)
	}
	if code, b := c.do("POST", "/play/api/tables/"+p.Token+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"control":"pause"}}`, v.Seq)); code != 422 {
		t.Fatalf("a pause at a table one plays: %d %s", code, b)
	}
	if code, b := c.do("POST", "/play/api/tables/"+w.Token+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"control":"speed","ms":0}}`, host.Seq)); code != 200 {
		t.Fatalf("speed: %d %s", code, b)
	}
	for !host.View.Over {
		host = c.view(w.Token, host.Seq)
	}
	if host.View.Again == nil || host.View.Again.Table != "watch" || host.View.Play {
		t.Fatalf("over: %+v", host.View)
	}
	if o := c.view(tabletest.Token(w.Watch), -1); o.View.Again != nil {
		t.Fatal("a watcher is offered the next game")
	}
}

// FuzzSetup: whatever a page sends as a setup, a table starts or the
// setup is refused as a person's mistake (400 or 422), never an internal
// error or a panic.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"mode":"std"}`, `{"mode":"anti","start":"random","clock":"flipsight","colour":"random","opponent":"person","seed":3}`,
		`{"mode":"grand","table":"watch","a":"first","b":"first","pace":0}`, `{"mode":"std","start":"xot","opponent":"first","pace":5000}`,
		`{"mode":"octagon","start":"xot"}`, `{"mode":"reversi","colour":"green"}`, `{"mode":"std","opponent":"nobody"}`, `{"mode":1}`, `[]`, `{"mode":"std","x":1}`,
	} {
		f.Add([]byte(s))
	}
	g, err := Game(Config{Engines: testConfig().Engines[:1]})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, setup []byte) {
		tb, _, err := g.New(t.Context(), setup, table.Env{ID: "FUZZTABLE", Notify: func() {}})
		if err != nil {
			if k := problem.KindOf(err); k != problem.Malformed && k != problem.Impossible {
				t.Fatalf("%s: %v (%v)", setup, err, k)
			}
			return
		}
		tb.Close()
	})
}
