package server

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"
)

// TestSessionsStayBounded creates 100,000 sessions that are never deleted
// (as the engine does) and checks the store holds at most its cap and the
// heap stays bounded. The figure is logged for the README's operating notes.
func TestSessionsStayBounded(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	s, _ := newTestServer(t, Config{MaxSessions: 10_000})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range n {
		rec := do(t, s, http.MethodPost, "/api/sessions", fmt.Sprintf(`{"position":"Top","matchId":"m%d"}`, i%7))
		if rec.Code != http.StatusCreated {
			t.Fatalf("create %d: %d", i, rec.Code)
		}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if got := s.Sessions(); got != 10_000 {
		t.Fatalf("sessions held %d, want the cap 10000", got)
	}
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d sessions created, %d held; heap %.1f MiB → %.1f MiB (+%.1f MiB)", n, s.Sessions(),
		float64(before.HeapAlloc)/(1<<20), float64(after.HeapAlloc)/(1<<20), float64(grown)/(1<<20))
	if grown > 256<<20 {
		t.Fatalf("heap grew by %d MiB for 10000 sessions", grown>>20)
	}
}
