package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/middeal"
	"github.com/prometheus/client_golang/prometheus"
)

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
	var bodies [][]byte
	for _, st := range middeal.States(16) {
		bodies = append(bodies, st.CardPlayed())
	}
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
