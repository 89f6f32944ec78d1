package meta

import (
	"slices"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// The repository's bot.meta.json must be valid and list only events the
// server handles (an unhandled one would cost a round trip for nothing).
func TestRepositoryMeta(t *testing.T) {
	m, err := Load("../bot.meta.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Launch.FileName == "" || m.HealthPath() != "/health" {
		t.Errorf("launch = %+v", m.Launch)
	}
	for _, n := range m.Notifications {
		if !slices.Contains(giretra.EventNames(), n) {
			t.Errorf("notification %q is not an engine event", n)
		}
	}
	// The bot needs the contract, which only negotiation-completed carries.
	if !slices.Contains(m.Notifications, "negotiation-completed") {
		t.Error("negotiation-completed must be subscribed: choose-card does not say who announced")
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
