package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/bot"
)

// FuzzGiretraEndpoints sends arbitrary bodies to every Giretra endpoint of
// a live session: the answer is never a 5xx, always JSON, and the session
// still answers a well-formed request afterwards.
func FuzzGiretraEndpoints(f *testing.F) {
	paths := []string{"choose-cut", "choose-negotiation-action", "choose-card", "notify/deal-started",
		"notify/negotiation-completed", "notify/card-played", "notify/trick-completed", "notify/deal-ended", "notify/match-ended"}
	for i, name := range []string{"engine_bid.json", "seed_bid.json", "seed_card.json", "seed_cut.json"} {
		b, err := readGolden(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), b)
	}
	f.Add(uint8(2), []byte(`{"hand":[],"handState":{"gameMode":"AllTrumps","currentTrick":{"leader":"Top","playedCards":[{"player":"Top","card":{"rank":"Ace","suit":"Clubs"}}]}},"validPlays":[{"rank":"Ace","suit":"Clubs"}]}`))
	f.Add(uint8(4), []byte(`{"negotiationState":{"dealer":"Left","actions":[{"type":"Double","player":"Top","targetMode":"NoTrumps"}]}}`))
	// The fast heuristic keeps the fuzzer on decoding, not searching.
	s, _ := newTestServerWith(f, Config{}, bot.Config{Fast: true})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/sessions", strings.NewReader(`{"position":"Left","matchId":"fuzz"}`)))
	var created struct{ SessionID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil {
		f.Fatal(err)
	}
	base := "/api/sessions/" + created.SessionID + "/"
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := base + paths[int(which)%len(paths)]
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body))))
		if rec.Code >= 500 {
			t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s: answer is not JSON: %q", path, rec.Body)
		}
		if strings.HasSuffix(path, "match-ended") {
			return // the session is now on its way out
		}
		rec = httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, base+"choose-cut", strings.NewReader(`{"deckSize":32,"matchState":{}}`)))
		if rec.Code != 200 {
			t.Fatalf("session disturbed: %d %s", rec.Code, rec.Body)
		}
	})
}
