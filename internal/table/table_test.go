package table

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/internal/problem"
)

// counter is a game for the hub's tests: the person adds 1, 2 or 3 to a
// total; its secret is never in the view.
type counter struct {
	mu      sync.Mutex
	seq     int
	total   int
	secret  string
	notify  func()
	closed  bool
	created time.Time
}

type counterView struct {
	Total int   `json:"total"`
	Valid []int `json:"valid"`
}

func (c *counter) View() (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq, counterView{Total: c.total, Valid: []int{1, 2, 3}}
}

func (c *counter) Act(seq int, body []byte) error {
	var a struct {
		Add int `json:"add"`
	}
	if err := problem.Decode(body, &a); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if seq != c.seq {
		return ErrStale(seq, c.seq)
	}
	if a.Add < 1 || a.Add > 3 {
		return Illegal([]int{1, 2, 3}, "cannot add %d", a.Add)
	}
	c.total += a.Add
	c.seq++
	c.notify()
	return nil
}

func (c *counter) Summary() Summary {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Summary{Title: "counter", Status: fmt.Sprint(c.total), Created: c.created, Over: c.total >= 100}
}

func (c *counter) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

func counterGame(made *[]*counter) *Game {
	return &Game{
		Name: "counter", Title: "Counter", Page: []byte("<!DOCTYPE html><title>counter</title>"),
		Assets: map[string][]byte{"page.js": []byte("'use strict';")},
		New: func(ctx context.Context, opts []byte, env Env) (Table, error) {
			var o struct {
				Start int `json:"start"`
			}
			if err := problem.Decode(opts, &o); err != nil {
				return nil, err
			}
			if o.Start < 0 {
				return nil, problem.Impossiblef("start %d: want ≥ 0", o.Start)
			}
			c := &counter{total: o.Start, secret: "SECRET-" + env.ID, notify: env.Notify, created: time.Now()}
			if made != nil {
				*made = append(*made, c)
			}
			return c, nil
		},
	}
}

func call(t *testing.T, srv *httptest.Server, method, path, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHubHTTP(t *testing.T) {
	var made []*counter
	hub := NewHub(HubConfig{MaxTables: 2}, counterGame(&made))
	defer hub.Close()
	srv := httptest.NewServer(hub.Handler(nil))
	defer srv.Close()

	code, body := call(t, srv, "POST", "/play/api/counter/tables", `{"start": 5}`)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	var c created
	json.Unmarshal([]byte(body), &c)
	if c.ID == "" || c.URL != "/play/counter?t="+c.ID {
		t.Fatalf("create answered %s", body)
	}
	tpath := "/play/api/tables/" + c.ID
	code, body = call(t, srv, "GET", tpath, "")
	if code != 200 || !strings.Contains(body, `"total":5`) || strings.Contains(body, "SECRET") {
		t.Fatalf("view: %d %s", code, body)
	}
	var v ViewBody
	json.Unmarshal([]byte(body), &v)

	before := body
	for _, tc := range []struct {
		name, method, path, body string
		header                   []string
		want                     int
		has                      string
	}{
		{"stale", "POST", tpath + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 1}}`, v.Seq+7), nil, 409, "stale"},
		{"illegal", "POST", tpath + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 9}}`, v.Seq), nil, 422, `"valid":[1,2,3]`},
		{"malformed action", "POST", tpath + "/actions", `{"seq": "x"}`, nil, 400, "error"},
		{"no seq", "POST", tpath + "/actions", `{"action": {"add": 1}}`, nil, 400, "seq"},
		{"unknown table", "POST", "/play/api/tables/NOPE/actions", `{"seq": 0, "action": {"add": 1}}`, nil, 404, "no table"},
		{"unknown table view", "GET", "/play/api/tables/NOPE", "", nil, 404, "no table"},
		{"too large", "POST", tpath + "/actions", `{"seq": 0, "action": {"pad": "` + strings.Repeat("x", MaxBody) + `"}}`, nil, 413, "larger"},
		{"other origin", "POST", tpath + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 1}}`, v.Seq), []string{"Origin", "http://evil.example"}, 403, "refused"},
		{"cross-site fetch", "GET", tpath, "", []string{"Sec-Fetch-Site", "cross-site"}, 403, "refused"},
		{"unknown game", "POST", "/play/api/chess/tables", `{}`, nil, 404, "no game"},
		{"bad setup", "POST", "/play/api/counter/tables", `{"start": -1}`, nil, 422, "start"},
		{"bad after", "GET", tpath + "?after=x", "", nil, 400, "after"},
		{"unknown page", "GET", "/play/chess", "", nil, 404, "no game"},
		{"no review", "GET", "/play/tables/" + c.ID + "/review", "", nil, 404, "review"},
	} {
		code, body := call(t, srv, tc.method, tc.path, tc.body, tc.header...)
		if code != tc.want || !strings.Contains(body, tc.has) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, code, body, tc.want, tc.has)
		}
	}
	if _, now := call(t, srv, "GET", tpath, ""); now != before {
		t.Fatalf("refused requests changed the table: %s → %s", before, now)
	}

	code, body = call(t, srv, "POST", tpath+"/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 2}}`, v.Seq), "Origin", srv.URL)
	if code != 200 || !strings.Contains(body, `"total":7`) {
		t.Fatalf("same-origin action: %d %s", code, body)
	}
	if code, body := call(t, srv, "POST", tpath+"/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 2}}`, v.Seq)); code != 409 {
		t.Fatalf("the same action sent twice: %d %s", code, body)
	}

	// The cap: a second table fits, a third does not.
	if code, _ := call(t, srv, "POST", "/play/api/counter/tables", `{}`); code != 201 {
		t.Fatalf("second table: %d", code)
	}
	if code, body := call(t, srv, "POST", "/play/api/counter/tables", `{}`); code != 503 {
		t.Fatalf("third table over a cap of 2, both in play: %d %s", code, body)
	}
	// A finished table makes room for a new one.
	made[0].mu.Lock()
	made[0].total = 100
	made[0].mu.Unlock()
	if code, body := call(t, srv, "POST", "/play/api/counter/tables", `{}`); code != 201 {
		t.Fatalf("a table over the cap with one finished: %d %s", code, body)
	}
	if !made[0].closed {
		t.Fatal("the finished table was not closed")
	}
	if code, _ := call(t, srv, "GET", tpath, ""); code != 404 {
		t.Fatalf("the finished table is still served: %d", code)
	}
	code, body = call(t, srv, "GET", "/play", "")
	if code != 200 || !strings.Contains(body, "resume") || strings.Contains(body, "SECRET") {
		t.Fatalf("lobby: %d %s", code, body)
	}
	for _, p := range []string{"/play", "/play/kit.js", "/play/counter", "/play/counter/page.js"} {
		resp, err := srv.Client().Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != 200 || !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: %d, CSP %q", p, resp.StatusCode, csp)
		}
	}
}

// TestLongPoll: a poll past the current version waits for the next one
// and answers it; with nothing new it answers the current view when its
// time is up (virtual time: the test takes no time).
func TestLongPoll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var made []*counter
		hub := NewHub(HubConfig{}, counterGame(&made))
		defer hub.Close()
		id, err := hub.Create("counter", []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		seq, _, _, _ := hub.Wait(context.Background(), id, -1)
		got := make(chan int)
		go func() {
			s, _, _, err := hub.Wait(context.Background(), id, seq)
			if err != nil {
				t.Error(err)
			}
			got <- s
		}()
		synctest.Wait()
		select {
		case s := <-got:
			t.Fatalf("the poll answered version %d before anything changed", s)
		default:
		}
		if err := made[0].Act(seq, []byte(`{"add": 1}`)); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != seq+1 {
			t.Fatalf("the poll answered version %d, want %d", s, seq+1)
		}
		ctx, cancel := context.WithTimeout(context.Background(), PollWait)
		defer cancel()
		start := time.Now()
		s, _, _, err := hub.Wait(ctx, id, seq+1)
		if err != nil || s != seq+1 || time.Since(start) != PollWait {
			t.Fatalf("an idle poll: version %d after %s (%v)", s, time.Since(start), err)
		}
	})
}

// TestReap: a table nobody visits for longer than the idle time is
// closed; one that is visited stays.
func TestReap(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	var made []*counter
	hub := NewHub(HubConfig{IdleTTL: time.Minute, Now: clock}, counterGame(&made))
	defer hub.Close()
	a, _ := hub.Create("counter", []byte(`{}`))
	b, _ := hub.Create("counter", []byte(`{}`))
	advance(40 * time.Second)
	if _, _, err := hub.Table(b); err != nil {
		t.Fatal(err)
	}
	advance(40 * time.Second)
	if n := hub.Reap(); n != 1 {
		t.Fatalf("reaped %d tables, want 1", n)
	}
	if _, _, err := hub.Table(a); problem.KindOf(err) != problem.NotFound {
		t.Fatalf("the idle table is still there: %v", err)
	}
	if _, _, err := hub.Table(b); err != nil {
		t.Fatalf("the visited table was reaped: %v", err)
	}
	if !made[0].closed || made[1].closed {
		t.Fatalf("closed: %v %v", made[0].closed, made[1].closed)
	}
	hub.Close()
	if !made[1].closed {
		t.Fatal("Close left a table open")
	}
	if _, err := hub.Create("counter", []byte(`{}`)); problem.KindOf(err) != problem.Unavailable {
		t.Fatalf("a closed hub made a table: %v", err)
	}
}

func TestLobbyEscapes(t *testing.T) {
	hub := NewHub(HubConfig{}, &Game{Name: "g", Title: "<b>G</b>", Blurb: "x", New: counterGame(nil).New})
	var buf bytes.Buffer
	if err := lobbyTemplate.Execute(&buf, lobbyData{Games: hub.Games()}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<b>G</b>") {
		t.Fatal("the lobby does not escape a title")
	}
}

func (c *counter) Valid() []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= 100 {
		return []any{}
	}
	return []any{map[string]int{"add": 1}, map[string]int{"add": 3}}
}

// TestLoad: scripted persons play games to their ends through the HTTP
// surface, every action acknowledged, nothing refused.
func TestLoad(t *testing.T) {
	hub := NewHub(HubConfig{MaxTables: 4}, counterGame(nil))
	defer hub.Close()
	srv := httptest.NewServer(hub.Handler(nil))
	defer srv.Close()
	r, err := Load(t.Context(), LoadConfig{URL: srv.URL, Game: "counter", Setup: []byte(`{"start": 90}`), Tables: 3, Duration: time.Millisecond, Seed: 1})
	if err != nil || r.Errors != 0 || r.Games != 3 || r.Actions < 3*4 || r.Actions > 3*10 || r.AckP99 <= 0 {
		t.Fatalf("%+v, %v", r, err)
	}
}
