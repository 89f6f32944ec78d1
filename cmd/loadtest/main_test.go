package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/loadgen"
)

// fakeServer answers the routes loadtest uses and records what it saw: the
// session creations (as the engine sends them) and the paths hit.
type fakeServer struct {
	mu      sync.Mutex
	creates []map[string]any
	hits    map[string]int // path prefix up to the session id -> count
	failing bool           // answer the load with 500
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/metrics":
		fmt.Fprintln(w, "# a comment\nprocess_resident_memory_bytes 4.194304e+06")
	case r.Method == http.MethodPost && r.URL.Path == "/api/sessions":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.creates = append(f.creates, body)
		fmt.Fprintf(w, `{"sessionId":"s%d"}`, len(f.creates))
	case r.Method == http.MethodPost:
		_, _ = io.Copy(io.Discard, r.Body)
		id, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/api/sessions/"), "/")
		if !strings.HasPrefix(id, "s") && r.URL.Path != "/battleship" {
			http.NotFound(w, r)
			return
		}
		f.hits[rest]++
		if f.failing && rest != "notify/negotiation-completed" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, `{}`)
	default:
		http.NotFound(w, r)
	}
}

func TestRunAgainstAFakeServer(t *testing.T) {
	f := &fakeServer{hits: map[string]int{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	report := filepath.Join(t.TempDir(), "report.json")
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"-url", srv.URL, "-scenario", "decide", "-conns", "2", "-duration", "2m", "-max-requests", "200", "-json", report}, cli.Env(nil), nil, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// 64 sessions, created the engine's way: a seat, a match id, no seed.
	if len(f.creates) != 64 {
		t.Fatalf("%d sessions created, want 64", len(f.creates))
	}
	for _, c := range f.creates {
		if c["position"] == nil || c["matchId"] == "" || c["seed"] != nil {
			t.Errorf("create body %v", c)
		}
	}
	if f.hits["notify/negotiation-completed"] != 64 || f.hits["choose-card"] == 0 {
		t.Errorf("hits %v", f.hits)
	}
	var results []loadgen.Result
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &results); err != nil || len(results) != 1 {
		t.Fatalf("report %s (%v)", b, err)
	}
	r := results[0]
	if r.Scenario != "decide" || r.Requests == 0 || r.Errors != 0 || r.PeakRSSMiB != 4 || r.P50ms > r.MaxMs {
		t.Errorf("result %+v", r)
	}
	if !strings.Contains(out.String(), "decide") {
		t.Errorf("output %q", out.String())
	}
}

func TestServerErrorsFailTheRun(t *testing.T) {
	f := &fakeServer{hits: map[string]int{}, failing: true}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var out bytes.Buffer
	err := run(t.Context(), []string{"-url", srv.URL, "-scenario", "notify", "-conns", "1", "-duration", "2m", "-max-requests", "20"}, cli.Env(nil), nil, &out, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "notify:") || !strings.Contains(out.String(), "first error") {
		t.Errorf("err %v, output %q", err, out.String())
	}
}

func TestInterruptedRunReportsWhatItRan(t *testing.T) {
	f := &fakeServer{hits: map[string]int{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out bytes.Buffer
	err := run(ctx, []string{"-url", srv.URL, "-duration", "1m"}, cli.Env(nil), nil, &out, io.Discard)
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), "interrupted: 0 of 3 scenarios run") {
		t.Errorf("err %v, output %q", err, out.String())
	}
}

func TestFlagsAndLoopback(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"-url", "http://loadtest.invalid:5063"}, "only loopback"},
		{[]string{"-url", "http://127.0.0.1.invalid"}, "only loopback"},
		{[]string{"-url", "::"}, "not a URL"},
		{[]string{"-conns", "0"}, "-conns"},
		{[]string{"-duration", "3m"}, "-duration"},
		{[]string{"-scenario", "chess"}, "unknown scenario"},
		{[]string{"extra"}, "unexpected arguments"},
	}
	for _, tt := range tests {
		err := run(t.Context(), tt.args, cli.Env(nil), nil, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%q: err %v, want %q", tt.args, err, tt.wantErr)
		}
	}
	for _, u := range []string{"http://127.0.0.1:5063", "http://localhost:1", "http://[::1]:80"} {
		if err := loadgen.CheckLoopback(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}
