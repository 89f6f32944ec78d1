package referee

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
)

// slowBot serves the engine in-process over HTTP, each answer after delay.
func slowBot(t *testing.T, delay time.Duration) *httptest.Server {
	t.Helper()
	self, err := agents.New("self")
	if err != nil {
		t.Fatal(err)
	}
	p := newAgentPlayer(self, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		time.Sleep(delay)
		out, err := p.call(r.Context(), body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestTimeout: the arena's limit on an exchange is a parameter, so that it
// can be tested without depending on the machine's speed: a bot answering
// after 20 ms loses to a 1 ms limit and plays under a 10 min one.
func TestTimeout(t *testing.T) {
	srv := slowBot(t, 20*time.Millisecond)
	c := Config{Mode: "target", Bot: srv.URL, Games: 1, Concurrency: 1, Seed: 1, Hidden: "uniform",
		Rules: battleship.Rules{W: 3, H: 3, Fleet: battleship.Fleet{0, 1, 1}}}
	for _, tt := range []struct {
		limit time.Duration
		wins  int
	}{{time.Millisecond, 0}, {10 * time.Minute, 1}} {
		c.Timeout = tt.limit
		rep, err := Run(t.Context(), c, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Wins != tt.wins || rep.Invalid != 1-tt.wins {
			t.Errorf("limit %v: %d wins, %d invalid %v", tt.limit, rep.Wins, rep.Invalid, rep.InvalidWhy)
		}
		if tt.wins == 0 && (len(rep.InvalidWhy) != 1 || !strings.Contains(rep.InvalidWhy[0], "play-turn")) {
			t.Errorf("invalid answers %q", rep.InvalidWhy)
		}
	}
}
