package server

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/othello"
	"github.com/prometheus/client_golang/prometheus"
)

// TestBadInputMatrix sends every class of bad input to every POST endpoint
// of the server (all three games) and checks the status and the JSON error.
func TestBadInputMatrix(t *testing.T) {
	s := New(slog.New(slog.DiscardHandler), Config{MaxBodyBytes: 1 << 16}, prometheus.NewRegistry(), Deps{
		NewGiretraPlayer: func() giretra.Player { return bot.New(bot.Config{Fast: true}) },
		Battleship:       battleship.NewBot(battleship.Options{}),
		Othello:          othello.NewEngine(othello.EngineOptions{Pool: 1, TTBits: 12}),
	})
	id := createSession(t, s, `{"position":"Left","matchId":"m"}`)
	endpoints := []string{
		"/api/sessions",
		"/api/sessions/" + id + "/choose-cut",
		"/api/sessions/" + id + "/choose-negotiation-action",
		"/api/sessions/" + id + "/choose-card",
		"/api/sessions/" + id + "/notify/card-played",
		"/battleship",
		"/othello/move",
	}
	huge := `{"x":"` + strings.Repeat("a", 1<<17) + `"}`
	classes := []struct {
		name   string
		body   string
		status int
	}{
		{"truncated JSON", `{"hand":[{"rank":"Ace"`, 400},
		{"not JSON", `hello`, 400},
		{"JSON array", `[1,2,3]`, 400},
		{"wrong types", `{"hand":5,"validPlays":"x","matchState":[],"position":[],"board":7,"action":3,"legal_moves":"a","matchId":1}`, 400},
		{"trailing data", `{} {}`, 400},
		{"huge body", huge, 413},
	}
	for _, ep := range endpoints {
		for _, c := range classes {
			t.Run(ep+"/"+c.name, func(t *testing.T) {
				rec := do(t, s, http.MethodPost, ep, c.body)
				if rec.Code != c.status {
					t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
				}
				var e struct {
					Error string `json:"error"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
					t.Fatalf("not a JSON error: %q", rec.Body)
				}
			})
		}
		t.Run(ep+"/wrong method", func(t *testing.T) {
			if rec := do(t, s, http.MethodPut, ep, `{}`); rec.Code != http.StatusMethodNotAllowed {
				t.Fatalf("PUT answered %d", rec.Code)
			}
		})
	}
	// A wrong content type is accepted on purpose: the engine sends
	// application/json, but arena clients (PHP curl) may label JSON as a
	// form, and refusing it would lose games for nothing.
	req := strings.NewReader(`{"matchId":"m"}`)
	rec := httptestRecorder(s, http.MethodPost, "/api/sessions", "application/x-www-form-urlencoded", req)
	if rec.Code != http.StatusCreated {
		t.Errorf("form content type: %d %s", rec.Code, rec.Body)
	}
	// Unknown session: 404 on every session endpoint.
	for _, ep := range endpoints[1:5] {
		rec := do(t, s, http.MethodPost, strings.Replace(ep, id, "no-such-session", 1), `{}`)
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s with an unknown session: %d", ep, rec.Code)
		}
	}
}

func httptestRecorder(h http.Handler, method, path, contentType string, body io.Reader) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, body)
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
