package referee

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/battleship/agents"
)

// impossibleAnswerer is the engine in-process, answering a fleet it cannot
// place with a JSON object after delay, as the server answers its 422.
func impossibleAnswerer(a agents.Agent, delay time.Duration) *contestant {
	p := newAgentPlayer(a, 1)
	return &contestant{name: "self", label: "gamebot", stop: func() {}, call: func(ctx context.Context, body []byte) ([]byte, error) {
		out, err := p.call(ctx, body)
		if err != nil {
			time.Sleep(delay)
			return []byte(`{"error":"impossible fleet"}`), nil
		}
		return out, nil
	}}
}

// TestConfigsSlowInit: the limit on an answer to an impossible fleet is a
// parameter, so that the test does not depend on the machine's speed: an
// answer after 5 ms fails a 1 ms limit and passes a 10 min one.
func TestConfigsSlowInit(t *testing.T) {
	self, err := agents.New("self")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		limit time.Duration
		ok    bool
	}{{time.Millisecond, false}, {10 * time.Minute, true}} {
		bot := impossibleAnswerer(self, 5*time.Millisecond)
		rep, err := configs(t.Context(), ConfigsConfig{Seed: 1, MaxCells: 9, SlowInit: tt.limit}, bot)
		if err != nil {
			t.Fatal(err)
		}
		var impossible int
		for _, c := range rep.Configs {
			if !strings.Contains(c.Name, "impossible") {
				if !c.OK {
					t.Errorf("%s: %s", c.Name, c.Detail)
				}
				continue
			}
			impossible++
			if c.OK != tt.ok || (!c.OK && c.Detail != "slow answer to an impossible fleet") {
				t.Errorf("limit %v, %s: ok %v (%s), want ok %v", tt.limit, c.Name, c.OK, c.Detail, tt.ok)
			}
		}
		if impossible != 1 || rep.Games != 3 {
			t.Errorf("%d impossible boards, %d games: %+v", impossible, rep.Games, rep.Configs)
		}
	}
}
