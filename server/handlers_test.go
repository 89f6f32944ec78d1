package server

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func do(t *testing.T, h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func createSession(t *testing.T, h http.Handler, body string) string {
	t.Helper()
	rec := do(t, h, http.MethodPost, "/api/sessions", body)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	var out struct{ SessionID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.SessionID == "" {
		t.Fatalf("create answer %s: %v", rec.Body, err)
	}
	return out.SessionID
}

func readGolden(name string) ([]byte, error) { return os.ReadFile("../giretra/wire/testdata/" + name) }

func golden(t *testing.T, name string) string {
	t.Helper()
	b, err := readGolden(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSessionLifecycle(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	// The engine's start-up smoke test: create, then DELETE.
	id := createSession(t, s, `{"position":"Bottom","matchId":"__smoke_test__"}`)
	if rec := do(t, s, http.MethodDelete, "/api/sessions/"+id, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete: %d", rec.Code)
	}
	// DELETE is idempotent.
	if rec := do(t, s, http.MethodDelete, "/api/sessions/"+id, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("second delete: %d", rec.Code)
	}
	if rec := do(t, s, http.MethodPost, "/api/sessions/"+id+"/choose-cut", `{"deckSize":32,"matchState":{}}`); rec.Code != http.StatusNotFound {
		t.Fatalf("deleted session answered %d", rec.Code)
	}
	// The seed document's {matchId} alone, and the engine's shape with a seed.
	createSession(t, s, `{"matchId":"m"}`)
	createSession(t, s, `{"position":"Left","matchId":"m","seed":42}`)
	if s.Sessions() != 2 {
		t.Fatalf("sessions %d, want 2", s.Sessions())
	}
}

func TestDecisionsAnswerAnOfferedOption(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	top := createSession(t, s, `{"position":"Top","matchId":"m"}`)
	rec := do(t, s, http.MethodPost, "/api/sessions/"+top+"/choose-negotiation-action", golden(t, "engine_bid.json"))
	if rec.Code != http.StatusOK {
		t.Fatalf("bid: %d %s", rec.Code, rec.Body)
	}
	if got := strings.TrimSpace(rec.Body.String()); got != `{"type":"Accept"}` && got != `{"type":"Double","targetMode":"AllTrumps"}` {
		t.Fatalf("bid answer %s is not an offered action", got)
	}

	bottom := createSession(t, s, `{"matchId":"m"}`)
	rec = do(t, s, http.MethodPost, "/api/sessions/"+bottom+"/choose-negotiation-action", golden(t, "seed_bid.json"))
	if rec.Code != http.StatusOK {
		t.Fatalf("seed bid: %d %s", rec.Code, rec.Body)
	}
	offered := []string{`{"type":"Announce","gameMode":"ColourHearts"}`, `{"type":"Announce","gameMode":"AllTrumps"}`, `{"type":"Accept"}`, `{"type":"Pass"}`}
	if got := strings.TrimSpace(rec.Body.String()); !contains(offered, got) {
		t.Fatalf("seed bid answer %s not among %v", got, offered)
	}
	rec = do(t, s, http.MethodPost, "/api/sessions/"+bottom+"/choose-card", golden(t, "seed_card.json"))
	if got := strings.TrimSpace(rec.Body.String()); rec.Code != http.StatusOK || !contains([]string{`{"rank":"Ace","suit":"Hearts"}`, `{"rank":"King","suit":"Hearts"}`}, got) {
		t.Fatalf("seed card: %d %s", rec.Code, got)
	}
	rec = do(t, s, http.MethodPost, "/api/sessions/"+bottom+"/choose-cut", golden(t, "seed_cut.json"))
	var cut struct {
		Position *int  `json:"position"`
		FromTop  *bool `json:"fromTop"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &cut); err != nil || cut.Position == nil || cut.FromTop == nil || *cut.Position < 6 || *cut.Position > 26 {
		t.Fatalf("cut: %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), ".") {
		t.Fatalf("cut position must be a JSON integer: %s", rec.Body)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Every class of bad input gets the right status and a JSON error.
func TestBadInput(t *testing.T) {
	s, _ := newTestServer(t, Config{MaxBodyBytes: 1 << 16})
	id := createSession(t, s, `{"position":"Bottom","matchId":"m"}`)
	sp := "/api/sessions/" + id
	card := `{"hand":[{"rank":"Ace","suit":"Hearts"}],"handState":{"gameMode":"NoTrumps","completedTricks":[]},"matchState":{},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`
	tests := []struct {
		name, method, path, body string
		status                   int
	}{
		{"truncated JSON", "POST", sp + "/choose-card", card[:40], 400},
		{"not JSON", "POST", sp + "/choose-card", "hello", 400},
		{"empty body", "POST", sp + "/choose-card", "", 400},
		{"trailing data", "POST", sp + "/choose-card", card + "{}", 400},
		{"wrong type", "POST", sp + "/choose-card", `{"hand":"AH","validPlays":[]}`, 400},
		{"missing validPlays", "POST", sp + "/choose-card", `{"hand":[],"handState":{"gameMode":"NoTrumps"}}`, 400},
		{"missing handState", "POST", sp + "/choose-card", `{"hand":[],"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`, 400},
		{"unknown rank", "POST", sp + "/choose-card", strings.Replace(card, `"rank":"Ace"`, `"rank":"Eleven"`, 1), 400},
		{"no valid plays", "POST", sp + "/choose-card", strings.Replace(card, `"validPlays":[{"rank":"Ace","suit":"Hearts"}]`, `"validPlays":[]`, 1), 422},
		{"no valid actions", "POST", sp + "/choose-negotiation-action", `{"hand":[],"validActions":[]}`, 422},
		{"unknown action type", "POST", sp + "/choose-negotiation-action", `{"hand":[],"validActions":[{"type":"Fold"}]}`, 400},
		{"bad dealer", "POST", sp + "/choose-cut", `{"deckSize":32,"matchState":{"currentDealer":"North"}}`, 400},
		{"unknown session", "POST", "/api/sessions/nope/choose-card", card, 404},
		{"unknown session notify", "POST", "/api/sessions/nope/notify/card-played", `{}`, 404},
		{"huge body", "POST", sp + "/choose-card", `{"hand":[` + strings.Repeat(`{"rank":"Ace","suit":"Hearts"},`, 3000) + `]}`, 413},
		{"create without matchId", "POST", "/api/sessions", `{"position":"Bottom"}`, 400},
		{"create with bad position", "POST", "/api/sessions", `{"position":"North","matchId":"m"}`, 400},
		{"create with array", "POST", "/api/sessions", `[]`, 400},
		{"wrong method", "GET", sp + "/choose-card", "", 405},
		{"unknown endpoint", "POST", sp + "/choose-trump", "{}", 404},
		{"bad notification body", "POST", sp + "/notify/card-played", `{"player":"Nobody","card":{"rank":"Ace","suit":"Hearts"}}`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, s, tt.method, tt.path, tt.body)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d (%s)", rec.Code, tt.status, rec.Body)
			}
			var e httpkit.ErrorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
				t.Fatalf("body %q is not a JSON error", rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("content type %q", ct)
			}
		})
	}
	// After all that, the session still plays.
	if rec := do(t, s, "POST", sp+"/choose-card", card); rec.Code != 200 {
		t.Fatalf("session disturbed: %d %s", rec.Code, rec.Body)
	}
}

func TestNotifications(t *testing.T) {
	reg := prometheus.NewRegistry()
	s := New(slog.New(slog.DiscardHandler), Config{}, reg, Deps{NewGiretraPlayer: func() giretra.Player { return bot.New(bot.Config{}) }})
	id := createSession(t, s, `{"position":"Right","matchId":"m"}`)
	for _, ev := range []string{"deal-started", "Deal-Started", "some-new-event"} {
		if rec := do(t, s, "POST", "/api/sessions/"+id+"/notify/"+ev, `{"matchState":{"currentDealer":"Top"}}`); rec.Code != 200 {
			t.Fatalf("%s: %d %s", ev, rec.Code, rec.Body)
		}
	}
	if got := testutil.ToFloat64(s.metrics.notifications.WithLabelValues("unknown")); got != 1 {
		t.Errorf("unknown events counted %v, want 1", got)
	}
	if got := testutil.ToFloat64(s.metrics.notifications.WithLabelValues("deal-started")); got != 2 {
		t.Errorf("deal-started counted %v, want 2", got)
	}
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
	rec := do(t, s, "GET", "/metrics", "")
	if !strings.Contains(rec.Body.String(), `bot_http_requests_total{code="200",method="POST",route="/api/sessions/{id}/notify/{event}"}`) {
		t.Errorf("metrics do not label by route pattern:\n%s", rec.Body)
	}
}

// fakeClock is a settable clock for the session store.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestSessionReclaim(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	s, _ := newTestServer(t, Config{MaxSessions: 3, SessionTTL: time.Hour, EndedSessionTTL: time.Minute, Now: clock.now})
	a := createSession(t, s, `{"matchId":"m"}`)
	b := createSession(t, s, `{"matchId":"m"}`)
	c := createSession(t, s, `{"matchId":"m"}`)
	do(t, s, "POST", "/api/sessions/"+a+"/notify/deal-started", `{}`) // a is now the most recently used
	d := createSession(t, s, `{"matchId":"m"}`)                       // over the cap: b (least recently used) goes
	if s.Sessions() != 3 {
		t.Fatalf("sessions %d, want 3", s.Sessions())
	}
	if rec := do(t, s, "POST", "/api/sessions/"+b+"/notify/deal-started", `{}`); rec.Code != 404 {
		t.Fatalf("evicted session answered %d", rec.Code)
	}
	// match-ended: a short grace, then gone.
	if rec := do(t, s, "POST", "/api/sessions/"+c+"/notify/match-ended", `{"matchState":{"isComplete":true}}`); rec.Code != 200 {
		t.Fatal(rec.Code)
	}
	clock.add(2 * time.Minute)
	s.sessions.sweep()
	if s.Sessions() != 2 {
		t.Fatalf("after match-ended grace: %d sessions, want 2", s.Sessions())
	}
	// Idle expiry.
	clock.add(2 * time.Hour)
	s.sessions.sweep()
	if s.Sessions() != 0 {
		t.Fatalf("after idle TTL: %d sessions", s.Sessions())
	}
	_ = d
}

func TestHealth(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if rec := do(t, s, "GET", "/health", ""); rec.Code != 200 {
		t.Fatal(rec.Code)
	}
}
