package table

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	tables "github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// testServer is the play hub with the battleship game behind httptest,
// every answer to the tables' API kept (a seat's JSON, all of it).
type testServer struct {
	*tabletest.Server
}

func newTestServer(t *testing.T, cfg Config, records string) *testServer {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Minute // a loaded machine's test bot is slow, not wrong
	}
	if !cfg.BotHosts.Loopback && len(cfg.BotHosts.Names) == 0 {
		cfg.BotHosts.Loopback = true // as gamebot play on this machine
	}
	return &testServer{tabletest.New(t, tables.NewHub(tables.HubConfig{Records: records}, Game(cfg)))}
}

func (ts *testServer) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	return ts.Call(t, method, path, body)
}

func (ts *testServer) create(t *testing.T, options string) string {
	t.Helper()
	return ts.Create(t, "battleship", options)
}

func (ts *testServer) view(t *testing.T, id string, after int) (int, View, []byte) {
	t.Helper()
	code, b := ts.call(t, "GET", fmt.Sprintf("/play/api/tables/%s?after=%d", id, after), "")
	if code != 200 {
		t.Fatalf("view: %d %s", code, b)
	}
	var vb struct {
		Seq  int
		View View
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("view %s: %v", b, err)
	}
	return vb.Seq, vb.View, b
}

// until waits (long polls, no clock) for a view that satisfies ok.
func (ts *testServer) until(t *testing.T, id string, ok func(View) bool) (int, View) {
	t.Helper()
	seq, v, _ := ts.view(t, id, -1)
	for !ok(v) {
		seq, v, _ = ts.view(t, id, seq)
	}
	return seq, v
}

func (ts *testServer) act(t *testing.T, id string, seq int, action string) (int, []byte) {
	t.Helper()
	return ts.call(t, "POST", "/play/api/tables/"+id+"/actions", fmt.Sprintf(`{"seq": %d, "action": %s}`, seq, action))
}

// mustAct acts and fails the test on a refusal.
func (ts *testServer) mustAct(t *testing.T, id string, seq int, action string) {
	t.Helper()
	if code, b := ts.act(t, id, seq, action); code != 200 {
		t.Fatalf("%s at %d: %d %s", action, seq, code, b)
	}
}

// playOut fires at the cells in reading order, skipping those fired at,
// until the game is over.
func (ts *testServer) playOut(t *testing.T, id string) View {
	t.Helper()
	for {
		seq, v := ts.until(t, id, func(v View) bool { return v.Phase == phaseOver || v.Turn == "you" })
		if v.Phase == phaseOver {
			return v
		}
		shot := map[[2]int]bool{}
		for _, s := range v.AtBot {
			shot[[2]int{s.X, s.Y}] = true
		}
		for c := range v.W * v.H {
			if x, y := c%v.W, c/v.W; !shot[[2]int{x, y}] {
				ts.mustAct(t, id, seq, fmt.Sprintf(`{"type": "shoot", "x": %d, "y": %d}`, x, y))
				break
			}
		}
	}
}

func (ts *testServer) answers() []tabletest.Sent { return ts.Sent() }

func testEnv() tables.Env { return tables.Env{ID: "TESTTABLE", Notify: func() {}} }
