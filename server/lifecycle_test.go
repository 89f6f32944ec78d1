package server

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/gamebot/giretra/bot"
)

// TestSessionLifecycleProperty runs random interleavings of create, notify,
// decide and delete from several goroutines on shared sessions. Every
// answer must be one the protocol allows for the session's state at that
// moment (200/201/204, or 404 once it is gone), never a 5xx, always JSON,
// and sessions that were never deleted keep working.
func TestSessionLifecycleProperty(t *testing.T) {
	s, _ := newTestServerWith(t, Config{MaxSessions: 50}, bot.Config{Fast: true})
	card := golden(t, "seed_card.json")
	bid := golden(t, "engine_bid.json")
	var (
		mu      sync.Mutex
		ids     []string
		deleted = map[string]bool{}
		wg      sync.WaitGroup
	)
	for w := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for range 400 {
				mu.Lock()
				var id string
				if len(ids) > 0 {
					id = ids[rng.IntN(len(ids))]
				}
				mu.Unlock()
				var method, path, body string
				switch op := rng.IntN(6); {
				case op == 0 || id == "":
					method, path, body = "POST", "/api/sessions", fmt.Sprintf(`{"position":%q,"matchId":"p"}`, []string{"Bottom", "Left", "Top", "Right"}[rng.IntN(4)])
				case op == 1:
					method, path = "DELETE", "/api/sessions/"+id
				case op == 2:
					method, path, body = "POST", "/api/sessions/"+id+"/choose-card", card
				case op == 3:
					method, path, body = "POST", "/api/sessions/"+id+"/choose-negotiation-action", bid
				case op == 4:
					method, path, body = "POST", "/api/sessions/"+id+"/notify/"+[]string{"deal-started", "card-played", "trick-completed"}[rng.IntN(3)], `{"matchState":{}}`
				default:
					method, path, body = "POST", "/api/sessions/"+id+"/choose-cut", `{"deckSize":32,"matchState":{}}`
				}
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
				if rec.Code >= 500 || (rec.Code != http.StatusNoContent && !json.Valid(rec.Body.Bytes())) {
					t.Errorf("%s %s: %d %q", method, path, rec.Code, rec.Body)
					return
				}
				mu.Lock()
				switch {
				case path == "/api/sessions":
					var out struct{ SessionID string }
					_ = json.Unmarshal(rec.Body.Bytes(), &out)
					ids = append(ids, out.SessionID)
				case method == "DELETE":
					if rec.Code != http.StatusNoContent {
						t.Errorf("DELETE: %d", rec.Code)
					}
					deleted[id] = true
				case rec.Code == http.StatusNotFound:
					// Only a deleted or capacity-evicted session may be unknown.
				case rec.Code != http.StatusOK:
					t.Errorf("%s %s: %d %s", method, path, rec.Code, rec.Body)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if s.Sessions() > 50 {
		t.Fatalf("%d sessions held over the cap of 50", s.Sessions())
	}
	// A deleted session never comes back.
	for id := range deleted {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/api/sessions/"+id+"/choose-cut", strings.NewReader(`{"matchState":{}}`)))
		if rec.Code != http.StatusNotFound {
			t.Fatalf("deleted session %s answered %d", id, rec.Code)
		}
	}
}
