package meta

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// The repository's bot.meta.json must be valid and subscribe to what the
// server needs (giretra/referee checks that each name is an engine event).
func TestRepositoryMeta(t *testing.T) {
	m, err := Load("../bot.meta.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Launch.FileName == "" || m.HealthPath() != "/health" {
		t.Errorf("launch = %+v", m.Launch)
	}
	// The bot needs the contract, which only negotiation-completed carries.
	if !slices.Contains(m.Notifications, "negotiation-completed") {
		t.Error("negotiation-completed must be subscribed: choose-card does not say who announced")
	}
	// The seat models learn how each player plays from the whole deal,
	// which only deal-ended shows (the last trick comes after our last card).
	if !slices.Contains(m.Notifications, "deal-ended") {
		t.Error("deal-ended must be subscribed: the behaviour models learn from it")
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"minimal", `{"name":"x","displayName":"X","notifications":[],"launch":{"fileName":"./x"}}`, ""},
		{"missing launch", `{"name":"x","displayName":"X","notifications":[]}`, "launch"},
		{"missing fileName", `{"name":"x","displayName":"X","notifications":[],"launch":{}}`, "fileName"},
		{"init without command", `{"name":"x","displayName":"X","notifications":[],"init":{},"launch":{"fileName":"x"}}`, "command"},
		{"unknown event", `{"name":"x","displayName":"X","notifications":["card-playd"],"launch":{"fileName":"x"}}`, "oneof"},
		{"notifications absent", `{"name":"x","displayName":"X","launch":{"fileName":"x"}}`, "notifications"},
		{"bad json", `{"name":`, "bot.meta.json"},
		{"name with space", `{"name":"my bot","displayName":"X","notifications":[],"launch":{"fileName":"x"}}`, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.json))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

// The repository's file read the engine's way: the launcher and the
// strict check agree on it.
func TestRepositoryMetaAsTheEngineReadsIt(t *testing.T) {
	b, err := Read("..")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load("../bot.meta.json")
	if err != nil {
		t.Fatal(err)
	}
	if b.AgentName != m.Name || b.DisplayName != m.DisplayName || b.Launch.FileName != m.Launch.FileName ||
		b.Launch.HealthPath() != m.HealthPath() || !b.Listed || !slices.Equal(b.Notifications, m.Notifications) {
		t.Errorf("engine view %+v disagrees with %+v", b, m)
	}
	if b.Init == nil || b.Init.Timeout != time.Duration(m.Init.Timeout)*time.Second {
		t.Errorf("init %+v", b.Init)
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		wantErr string
		check   func(t *testing.T, b *Bot)
	}{
		{name: "defaults", json: `{"launch":{"fileName":"./x"}}`, check: func(t *testing.T, b *Bot) {
			if b.AgentName != "folder" || b.DisplayName != "folder" {
				t.Errorf("names %q %q, want the folder's", b.AgentName, b.DisplayName)
			}
			if b.Init != nil || b.Launch.Port != 0 || b.Launch.StartupTimeout != 30*time.Second || b.Launch.HealthPath() != "/health" {
				t.Errorf("defaults %+v", b)
			}
			if b.Listed || b.Notifications != nil {
				t.Errorf("no list: listed %v %q, want none (all six events)", b.Listed, b.Notifications)
			}
		}},
		{name: "case-insensitive names", json: `{"NAME":"n","Launch":{"FILENAME":"./x","Port":7001,"StartupTimeout":5,"HealthEndpoint":"/ready"},"Init":{"Command":"make"}}`,
			check: func(t *testing.T, b *Bot) {
				if b.AgentName != "n" || b.Launch.FileName != "./x" || b.Launch.Port != 7001 || b.Launch.StartupTimeout != 5*time.Second || b.Launch.HealthPath() != "/ready" {
					t.Errorf("got %+v", b)
				}
				if b.Init == nil || b.Init.Command != "make" || b.Init.Timeout != 120*time.Second {
					t.Errorf("init %+v", b.Init)
				}
			}},
		{name: "agentName wins over name", json: `{"name":"n","agentName":"a","displayName":"D","launch":{"fileName":"x"}}`, check: func(t *testing.T, b *Bot) {
			if b.AgentName != "a" || b.DisplayName != "D" {
				t.Errorf("names %q %q", b.AgentName, b.DisplayName)
			}
		}},
		{name: "empty list", json: `{"notifications":[],"launch":{"fileName":"x"}}`, check: func(t *testing.T, b *Bot) {
			if !b.Listed || len(b.Notifications) != 0 {
				t.Errorf("listed %v %q, want an empty list", b.Listed, b.Notifications)
			}
		}},
		{name: "null list is all", json: `{"notifications":null,"launch":{"fileName":"x"}}`, check: func(t *testing.T, b *Bot) {
			if b.Listed {
				t.Errorf("listed %q, want no list (all six events)", b.Notifications)
			}
		}},
		{name: "list, unknown names ignored", json: `{"notifications":["Match-Ended","bogus"],"launch":{"fileName":"x"}}`, check: func(t *testing.T, b *Bot) {
			if !b.Listed || !slices.Equal(b.Notifications, []string{"Match-Ended", "bogus"}) {
				t.Errorf("listed %v %q", b.Listed, b.Notifications)
			}
		}},
		{name: "environment and timeouts", json: `{"init":{"command":"go","arguments":"build .","timeout":300},"launch":{"fileName":"x","arguments":"-v","environmentVariables":{"PORT":"9"}}}`,
			check: func(t *testing.T, b *Bot) {
				if b.Init.Timeout != 300*time.Second || b.Init.Arguments != "build ." || b.Launch.Arguments != "-v" || b.Launch.Env["PORT"] != "9" {
					t.Errorf("got %+v %+v", b.Init, b.Launch)
				}
			}},
		{name: "no launch is skipped", json: `{"name":"x"}`, wantErr: "skips"},
		{name: "no fileName", json: `{"launch":{}}`, wantErr: "launch.fileName"},
		{name: "init without command", json: `{"init":{},"launch":{"fileName":"x"}}`, wantErr: "init.command"},
		{name: "bad json", json: `{"launch":`, wantErr: "bot.meta.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Decode([]byte(tt.json), "/bots/folder")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, b)
		})
	}
	if _, err := Decode([]byte(`{}`), "x"); !errors.Is(err, ErrNoLaunch) {
		t.Errorf("no launch: %v, want ErrNoLaunch", err)
	}
	if _, err := Read(t.TempDir()); err == nil {
		t.Error("a folder without bot.meta.json read")
	}
}
