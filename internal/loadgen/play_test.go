package loadgen

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// TestPlay: scripted persons play games to their ends through the
// tables' HTTP surface, every action acknowledged, nothing refused.
func TestPlay(t *testing.T) {
	hub := table.NewHub(table.HubConfig{MaxTables: 4}, tabletest.CounterGame(nil))
	defer hub.Close()
	srv := httptest.NewServer(hub.Handler(nil))
	defer srv.Close()
	r, err := Play(t.Context(), PlayConfig{URL: srv.URL, Game: "counter", Setup: []byte(`{"start": 90}`), Tables: 3, Duration: time.Millisecond, Seed: 1})
	if err != nil || r.Errors != 0 || r.Games != 3 || r.Actions < 3*4 || r.Actions > 3*10 || r.AckP99 <= 0 {
		t.Fatalf("%+v, %v", r, err)
	}
}
