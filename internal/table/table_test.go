package table_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// client is a browser: its own cookies, requests as its page makes them.
type client struct {
	t   *testing.T
	srv *httptest.Server
	hc  *http.Client
}

func newClient(t *testing.T, srv *httptest.Server) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, srv: srv, hc: &http.Client{Jar: jar, Transport: srv.Client().Transport}}
}

// call makes a request; header is name, value, … (a "Host" sets the
// request's Host).
func (c *client) call(method, path, body string, header ...string) (int, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.srv.URL+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c *client) create(body string) table.Created {
	c.t.Helper()
	code, b := c.call("POST", "/play/api/counter/tables", body)
	if code != http.StatusCreated {
		c.t.Fatalf("create %s: %d %s", body, code, b)
	}
	var cr table.Created
	if err := json.Unmarshal([]byte(b), &cr); err != nil {
		c.t.Fatal(err)
	}
	return cr
}

func serve(t *testing.T, cfg table.HubConfig, logger *slog.Logger, games ...*table.Game) (*table.Hub, *httptest.Server) {
	hub := table.NewHub(cfg, games...)
	srv := httptest.NewServer(hub.Handler(logger))
	t.Cleanup(func() { srv.Close(); hub.Close() })
	return hub, srv
}

func TestHubHTTP(t *testing.T) {
	var made []*tabletest.Counter
	_, srv := serve(t, table.HubConfig{MaxTables: 2}, nil, tabletest.CounterGame(&made))
	c := newClient(t, srv)
	c.call("GET", "/play", "") // the browser gets its cookie

	cr := c.create(`{"start": 5}`)
	if cr.Token == "" || cr.URL != "/play/counter?t="+cr.Token || tabletest.Token(cr.Watch) == "" || tabletest.Token(cr.Watch) == cr.Token {
		t.Fatalf("create answered %+v", cr)
	}
	tpath := "/play/api/tables/" + cr.Token
	code, body := c.call("GET", tpath, "")
	if code != 200 || !strings.Contains(body, `"total":5`) || strings.Contains(body, "SECRET") || !strings.Contains(body, `"links"`) {
		t.Fatalf("view: %d %s", code, body)
	}
	var v table.ViewBody
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
		{"malformed action", "POST", tpath + "/actions", `{"seq": "x"}`, nil, 400, `\"seq\" must be a whole number, not a string`},
		{"not an object", "POST", tpath + "/actions", `[1]`, nil, 400, "want an object, not a list"},
		{"unknown field", "POST", tpath + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 1}, "actoin": 1}`, v.Seq), nil, 400, `unknown field \"actoin\"`},
		{"unknown action field", "POST", tpath + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"addd": 1}}`, v.Seq), nil, 400, `unknown field \"addd\"`},
		{"no seq", "POST", tpath + "/actions", `{"action": {"add": 1}}`, nil, 400, "seq"},
		{"unknown table", "POST", "/play/api/tables/NOPE/actions", `{"seq": 0, "action": {"add": 1}}`, nil, 404, "no such table"},
		{"unknown table view", "GET", "/play/api/tables/NOPE", "", nil, 404, "no such table"},
		{"too large", "POST", tpath + "/actions", `{"seq": 0, "action": {"pad": "` + strings.Repeat("x", table.MaxBody) + `"}}`, nil, 413, "larger"},
		{"other origin", "POST", tpath + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 1}}`, v.Seq), []string{"Origin", "http://evil.example.invalid"}, 403, "refused"},
		{"cross-site fetch", "GET", tpath, "", []string{"Sec-Fetch-Site", "cross-site"}, 403, "refused"},
		{"watcher acts", "POST", "/play/api/tables/" + tabletest.Token(cr.Watch) + "/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 1}}`, v.Seq), nil, 403, "watcher"},
		{"unknown game", "POST", "/play/api/chess/tables", `{}`, nil, 404, "no game"},
		{"bad setup", "POST", "/play/api/counter/tables", `{"start": -1}`, nil, 400, "start"},
		{"misspelt setup", "POST", "/play/api/counter/tables", `{"strat": 1}`, nil, 400, `unknown field \"strat\"`},
		{"bad after", "GET", tpath + "?after=x", "", nil, 400, "after"},
		{"unknown page", "GET", "/play/chess", "", nil, 404, "no game"},
		{"no review", "GET", "/play/tables/" + cr.Token + "/review", "", nil, 404, "review"},
	} {
		code, body := c.call(tc.method, tc.path, tc.body, tc.header...)
		if code != tc.want || !strings.Contains(body, tc.has) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, code, body, tc.want, tc.has)
		}
		for _, goName := range []string{"table.", "struct", "int64", "[]"} {
			if code >= 400 && strings.Contains(body, goName) {
				t.Errorf("%s: the message speaks Go (%q): %s", tc.name, goName, body)
			}
		}
	}
	if _, now := c.call("GET", tpath, ""); now != before {
		t.Fatalf("refused requests changed the table: %s → %s", before, now)
	}

	code, body = c.call("POST", tpath+"/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 2}}`, v.Seq), "Origin", srv.URL)
	if code != 200 || !strings.Contains(body, `"total":7`) {
		t.Fatalf("same-origin action: %d %s", code, body)
	}
	if code, body := c.call("POST", tpath+"/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": 2}}`, v.Seq)); code != 409 {
		t.Fatalf("the same action sent twice: %d %s", code, body)
	}
	// The watcher's view carries no links to pass on.
	if _, body := c.call("GET", "/play/api/tables/"+tabletest.Token(cr.Watch), ""); strings.Contains(body, `"links"`) || !strings.Contains(body, `"seat":-1`) {
		t.Fatalf("the watcher's view: %s", body)
	}

	// The cap: a second table fits, a third does not.
	c.create(`{}`)
	if code, body := c.call("POST", "/play/api/counter/tables", `{}`); code != 503 {
		t.Fatalf("third table over a cap of 2, both in play: %d %s", code, body)
	}
	// A finished table makes room for a new one.
	made[0].Finish()
	c.create(`{}`)
	deadline := time.Now().Add(10 * time.Second)
	for !made[0].Closed() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !made[0].Closed() {
		t.Fatal("the finished table was not closed")
	}
	if code, _ := c.call("GET", tpath, ""); code != 404 {
		t.Fatalf("the finished table is still served: %d", code)
	}
	for _, p := range []string{"/play", "/play/kit.js", "/play/counter", "/play/counter/page.js"} {
		for _, method := range []string{"GET", "HEAD"} {
			req, _ := http.NewRequest(method, srv.URL+p, nil)
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if csp := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != 200 || !strings.Contains(csp, "default-src 'self'") {
				t.Errorf("%s %s: %d, CSP %q", method, p, resp.StatusCode, csp)
			}
		}
	}
}

// TestHostCheck: a request whose Host is not a name this listener is
// reached by is refused before any handler, pages included (DNS
// rebinding: a page of another site whose name now points here sends its
// own name as Host, and its own origin, which then match).
func TestHostCheck(t *testing.T) {
	var made []*tabletest.Counter
	_, srv := serve(t, table.HubConfig{Hosts: []string{"play.example.invalid", "alias.example.invalid:8443"}}, nil, tabletest.CounterGame(&made))
	c := newClient(t, srv)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	rebind := "rebind.attacker.invalid:" + port
	for _, tc := range []struct {
		method, path, body string
	}{
		{"POST", "/play/api/counter/tables", `{"start": 1}`},
		{"GET", "/play/api/tables", ""},
		{"GET", "/play", ""},
		{"GET", "/play/counter", ""},
		{"GET", "/play/kit.js", ""},
		{"GET", "/", ""},
		{"GET", "/no/such/page", ""},
	} {
		code, body := c.call(tc.method, tc.path, tc.body, "Host", rebind, "Origin", "http://"+rebind)
		if code != http.StatusForbidden || !strings.Contains(body, "-hosts") {
			t.Errorf("%s %s with Host %s: %d %s", tc.method, tc.path, rebind, code, body)
		}
	}
	if len(made) != 0 {
		t.Fatalf("a refused request made %d tables", len(made))
	}
	for host, want := range map[string]int{
		"127.0.0.1:" + port:                 200,
		"localhost:" + port:                 200,
		"LOCALHOST:" + port:                 200,
		"[::1]:" + port:                     200,
		"127.0.0.2:" + port:                 200,
		"localhost:1":                       403, // another port: another server
		"localhost":                         403,
		"play.example.invalid":              200, // named: behind a proxy, any port
		"play.example.invalid:" + port:      200,
		"play.example.invalid:1":            403,
		"alias.example.invalid:8443":        200, // named with its port
		"alias.example.invalid:" + port:     403,
		"other.example.invalid:" + port:     403,
		"127.0.0.1.example.invalid:" + port: 403,
	} {
		if code, body := c.call("GET", "/play/api/tables", "", "Host", host); code != want {
			t.Errorf("Host %s: %d %s, want %d", host, code, body, want)
		}
	}
}

// TestLobbyPerClient: the lobby lists a browser's own tables, with their
// links, and no one else's; a client's tables are capped.
func TestLobbyPerClient(t *testing.T) {
	_, srv := serve(t, table.HubConfig{MaxPerClient: 2}, nil, tabletest.CounterGame(nil))
	a, b := newClient(t, srv), newClient(t, srv)
	a.call("GET", "/play", "")
	b.call("GET", "/play", "")
	ca := a.create(`{"people": 2}`)
	if len(ca.Seats) != 1 || tabletest.Token(ca.Seats[0].URL) == "" {
		t.Fatalf("a table with a guest seat: %+v", ca)
	}
	_, la := a.call("GET", "/play/api/tables", "")
	_, lb := b.call("GET", "/play/api/tables", "")
	if !strings.Contains(la, ca.Token) || !strings.Contains(la, tabletest.Token(ca.Seats[0].URL)) {
		t.Fatalf("the creator's lobby lacks the table or its links: %s", la)
	}
	if lb != "[]\n" {
		t.Fatalf("another browser's lobby shows %s", lb)
	}
	if _, page := b.call("GET", "/play", ""); strings.Contains(page, ca.Token) {
		t.Fatal("another browser's lobby page shows the table")
	}
	a.create(`{}`)
	if code, body := a.call("POST", "/play/api/counter/tables", `{}`); code != 503 || !strings.Contains(body, "you have 2 tables") {
		t.Fatalf("a third table for one client over a cap of 2: %d %s", code, body)
	}
	b.create(`{}`) // another client has room
}

// TestSeatsByToken: each token opens its own seat; a guest plays their
// seat, not the creator's, and only the creator is given the links.
func TestSeatsByToken(t *testing.T) {
	_, srv := serve(t, table.HubConfig{}, nil, tabletest.CounterGame(nil))
	c := newClient(t, srv)
	cr := c.create(`{"people": 2}`)
	guest := tabletest.Token(cr.Seats[0].URL)
	act := func(token string, add int) (int, string) {
		_, body := c.call("GET", "/play/api/tables/"+token, "")
		var v table.ViewBody
		json.Unmarshal([]byte(body), &v)
		return c.call("POST", "/play/api/tables/"+token+"/actions", fmt.Sprintf(`{"seq": %d, "action": {"add": %d}}`, v.Seq, add))
	}
	if code, body := act(guest, 1); code != 422 {
		t.Fatalf("the guest played out of turn: %d %s", code, body)
	}
	if code, body := act(cr.Token, 1); code != 200 || !strings.Contains(body, `"seat":0`) {
		t.Fatalf("the creator: %d %s", code, body)
	}
	code, body := act(guest, 2)
	if code != 200 || !strings.Contains(body, `"seat":1`) || !strings.Contains(body, `"total":3`) || strings.Contains(body, `"links"`) {
		t.Fatalf("the guest: %d %s", code, body)
	}
}

// TestInternalErrorHidden: an error that is not the client's reads
// "internal error"; its cause goes to the log only.
func TestInternalErrorHidden(t *testing.T) {
	var logged bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &logged, mu: &mu}, nil))
	_, srv := serve(t, table.HubConfig{}, logger, tabletest.CounterGame(nil))
	c := newClient(t, srv)
	code, body := c.call("POST", "/play/api/counter/tables", `{"fail": "SECRET path /home/x"}`)
	if code != 500 || body != `{"error":"internal error"}`+"\n" {
		t.Fatalf("an internal error answered %d %s", code, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logged.String(), "SECRET path /home/x") {
		t.Fatalf("the cause was not logged: %s", logged.String())
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// TestLongPoll: a poll past the current version waits for the next one
// and answers it; with nothing new it answers the current view when its
// time is up (virtual time: the test takes no time).
func TestLongPoll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var made []*tabletest.Counter
		hub := table.NewHub(table.HubConfig{}, tabletest.CounterGame(&made))
		defer hub.Close()
		cr, err := hub.Create("counter", []byte(`{}`), table.Client{})
		if err != nil {
			t.Fatal(err)
		}
		p := i18n.For(i18n.EN)
		seq, _, _, _ := hub.Wait(context.Background(), cr.Token, -1, p)
		got := make(chan int)
		go func() {
			s, _, _, err := hub.Wait(context.Background(), cr.Token, seq, p)
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
		if err := made[0].Act(table.Viewer{Seat: 0, P: p}, seq, []byte(`{"add": 1}`)); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != seq+1 {
			t.Fatalf("the poll answered version %d, want %d", s, seq+1)
		}
		ctx, cancel := context.WithTimeout(context.Background(), table.PollWait)
		defer cancel()
		start := time.Now()
		s, _, _, err := hub.Wait(ctx, cr.Token, seq+1, p)
		if err != nil || s != seq+1 || time.Since(start) != table.PollWait {
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
	var made []*tabletest.Counter
	hub := table.NewHub(table.HubConfig{IdleTTL: time.Minute, Now: clock}, tabletest.CounterGame(&made))
	defer hub.Close()
	a, _ := hub.Create("counter", []byte(`{}`), table.Client{})
	b, _ := hub.Create("counter", []byte(`{}`), table.Client{})
	advance(40 * time.Second)
	if _, err := hub.Table(b.Token); err != nil {
		t.Fatal(err)
	}
	advance(40 * time.Second)
	if n := hub.Reap(); n != 1 {
		t.Fatalf("reaped %d tables, want 1", n)
	}
	if _, err := hub.Table(a.Token); problem.KindOf(err) != problem.NotFound {
		t.Fatalf("the idle table is still there: %v", err)
	}
	if _, err := hub.Table(tabletest.Token(a.Watch)); problem.KindOf(err) != problem.NotFound {
		t.Fatalf("the idle table's watch link still opens it: %v", err)
	}
	if _, err := hub.Table(b.Token); err != nil {
		t.Fatalf("the visited table was reaped: %v", err)
	}
	if !made[0].Closed() || made[1].Closed() {
		t.Fatalf("closed: %v %v", made[0].Closed(), made[1].Closed())
	}
	hub.Close()
	if !made[1].Closed() {
		t.Fatal("Close left a table open")
	}
	if _, err := hub.Create("counter", []byte(`{}`), table.Client{}); problem.KindOf(err) != problem.Unavailable {
		t.Fatalf("a closed hub made a table: %v", err)
	}
}

func TestLobbyEscapes(t *testing.T) {
	g := tabletest.CounterGame(nil)
	g.Title = "<b>G</b>"
	_, srv := serve(t, table.HubConfig{}, nil, g)
	if _, page := newClient(t, srv).call("GET", "/play", ""); strings.Contains(page, "<b>G</b>") || !strings.Contains(page, "&lt;b&gt;G&lt;/b&gt;") {
		t.Fatalf("the lobby does not escape a title: %s", page)
	}
}

// FuzzActionBody: whatever a page posts as an action is answered with a
// status of the error model (never a 500 or a panic), and a refused
// action changes nothing.
func FuzzActionBody(f *testing.F) {
	for _, s := range []string{`{"seq": 0, "action": {"add": 1}}`, `{"seq": 0}`, `[]`, `{"seq": 0, "action": {"add": 1}, "x": 1}`, `null`, `{"seq": 1e99, "action": 1}`} {
		f.Add(s)
	}
	hub := table.NewHub(table.HubConfig{}, tabletest.CounterGame(nil))
	defer hub.Close()
	h := hub.Handler(nil)
	cr, err := hub.Create("counter", []byte(`{}`), table.Client{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "/play/api/tables/"+cr.Token+"/actions", strings.NewReader(body))
		req.Host = "127.0.0.1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch w.Code {
		case 200, 400, 403, 409, 413, 422:
		default:
			t.Fatalf("%q: %d %s", body, w.Code, w.Body)
		}
	})
}

// FuzzSetup: whatever a page posts as a setup is a table or an error of
// the error model.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{`{"start": 1}`, `{"people": 3}`, `{"strat": 1}`, `{}`, `[]`, `{"start": -1}`, `{"people": "x"}`} {
		f.Add(s)
	}
	hub := table.NewHub(table.HubConfig{MaxTables: 1 << 20}, tabletest.CounterGame(nil))
	defer hub.Close()
	h := hub.Handler(nil)
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "/play/api/counter/tables", strings.NewReader(body))
		req.Host = "127.0.0.1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch w.Code {
		case 201, 400, 413, 422:
		default:
			t.Fatalf("%q: %d %s", body, w.Code, w.Body)
		}
	})
}

// TestLanguages: a page speaks the language the person chose with its
// switch (a cookie), else the browser's, else English; <html lang>
// follows, and the page's script gets its texts in that language.
func TestLanguages(t *testing.T) {
	_, srv := serve(t, table.HubConfig{}, nil, tabletest.CounterGame(nil))
	c := newClient(t, srv)
	for _, tc := range []struct {
		path, accept, cookie, lang, has string
	}{
		{"/play", "", "", "en", "Your tables"},
		{"/play", "fr-FR,fr;q=0.9", "", "fr", "Vos tables"},
		{"/play", "fr-FR", "mg", "mg", "Ny latabatrao"},
		{"/play", "de-DE", "", "en", "Your tables"},
		{"/play/counter", "fr", "", "fr", `&#34;kit.js.settingUp&#34;:&#34;On dresse la table…&#34;`},
		{"/play/counter", "", "mg", "mg", `kit.js.toLobby`},
	} {
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		if tc.accept != "" {
			req.Header.Set("Accept-Language", tc.accept)
		}
		if tc.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "gamebot_lang", Value: tc.cookie})
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(b)
		if !strings.Contains(page, `<html lang="`+tc.lang+`"`) || !strings.Contains(page, tc.has) || strings.Count(page, "<html") != 1 {
			t.Errorf("%s (Accept-Language %q, cookie %q): want lang %s with %q:\n%.600s", tc.path, tc.accept, tc.cookie, tc.lang, tc.has, page)
		}
	}
}

// TestCatalogues: every key of the kit is in every language, with the
// same verbs.
func TestCatalogues(t *testing.T) {
	for _, bad := range i18n.Check() {
		t.Error(bad)
	}
}
