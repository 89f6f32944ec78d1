package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/prometheus/client_golang/prometheus"
)

// notifyBodies are card-played notifications in the middle of deals, as
// cmd/loadtest's notify scenario sends them.
func notifyBodies(n int) [][]byte {
	var out [][]byte
	for i := range n {
		rng := rand.New(rand.NewPCG(uint64(i), 17))
		deck := giretra.Shuffle(rng)
		dealer := giretra.Position(i % 4)
		hands, next := giretra.DealFirst(&deck, dealer)
		giretra.DealRest(&deck, dealer, &hands, next)
		mode := giretra.Mode(i % 6)
		hs := giretra.HandState{Mode: mode, Current: giretra.NewTrick(dealer.Next())}
		var last giretra.Card
		var who giretra.Position
		for range 9 + i%4 {
			who = hs.Current.Next()
			valid := giretra.LegalPlays(hands[who], &hs.Current, mode).Cards()
			last = valid[rng.IntN(len(valid))]
			hands[who] = hands[who].Without(last)
			hs.Play(last)
		}
		ms := giretra.NewMatchState(151, dealer)
		b, _ := json.Marshal(wire.EncodeEvent(wire.Engine, &giretra.Event{Kind: giretra.CardPlayed, Player: who, Card: last, Hand: &hs, Match: &ms}, giretra.Normal))
		out = append(out, b)
	}
	return out
}

// BenchmarkNotify is the request edge's common path: a card-played
// notification through routing, the session store, decoding, the player
// and the metrics, answered 200. The request and the response writer are
// reused, so that what is measured is the server's own work.
func BenchmarkNotify(b *testing.B) {
	s := New(slog.New(slog.DiscardHandler), Config{}, prometheus.NewRegistry(), Deps{NewGiretraPlayer: func() giretra.Player { return bot.New(bot.Config{}) }})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/sessions", bytes.NewReader([]byte(`{"position":"Bottom","matchId":"m"}`))))
	var created struct{ SessionID string }
	_ = json.Unmarshal(rec.Body.Bytes(), &created)
	bodies := notifyBodies(16)
	body := bytes.NewReader(nil)
	req := httptest.NewRequest(http.MethodPost, "/api/sessions/"+created.SessionID+"/notify/card-played", body)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		body.Reset(bodies[i%len(bodies)])
		req.ContentLength = int64(len(bodies[i%len(bodies)]))
		s.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
}

// discardWriter is a ResponseWriter that keeps only the status.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }
