package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tables "github.com/botarena/gamebot/internal/table"
)

// testServer is the play hub with the battleship game behind httptest,
// every answer to an /play/api/ request kept (a seat's JSON, all of it).
type testServer struct {
	*httptest.Server
	hub *tables.Hub

	mu   sync.Mutex
	sent []sent
}

type sent struct {
	path   string
	status int
	body   []byte
}

// capture keeps a copy of what it writes.
type capture struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (c *capture) WriteHeader(code int) { c.status = code; c.ResponseWriter.WriteHeader(code) }
func (c *capture) Write(b []byte) (int, error) {
	c.buf.Write(b)
	return c.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (c *capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func newTestServer(t *testing.T, cfg Config, records string) *testServer {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Minute // a loaded machine's test bot is slow, not wrong
	}
	ts := &testServer{hub: tables.NewHub(tables.HubConfig{Records: records}, Game(cfg))}
	h := ts.hub.Handler(nil)
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &capture{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(c, r)
		if strings.HasPrefix(r.URL.Path, "/play/api/") || strings.HasPrefix(r.URL.Path, "/play/tables/") {
			ts.mu.Lock()
			ts.sent = append(ts.sent, sent{path: r.URL.Path, status: c.status, body: bytes.Clone(c.buf.Bytes())})
			ts.mu.Unlock()
		}
	}))
	t.Cleanup(func() {
		ts.hub.Close()
		ts.Close()
	})
	return ts
}

func (ts *testServer) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (ts *testServer) create(t *testing.T, options string) string {
	t.Helper()
	code, b := ts.call(t, "POST", "/play/api/battleship/tables", options)
	if code != http.StatusCreated {
		t.Fatalf("create %s: %d %s", options, code, b)
	}
	var c struct{ ID string }
	if err := json.Unmarshal(b, &c); err != nil || c.ID == "" {
		t.Fatalf("create answered %s", b)
	}
	return c.ID
}

// view is the table's view past version after (-1: the current one).
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

func (ts *testServer) answers() []sent {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]sent(nil), ts.sent...)
}

func testEnv() tables.Env { return tables.Env{ID: "TESTTABLE", Notify: func() {}} }
