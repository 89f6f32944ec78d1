package players

import (
	"slices"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/meta"
)

func TestBotEvents(t *testing.T) {
	all := AllEvents()
	for _, tc := range []struct {
		name string
		bot  meta.Bot
		want [6]bool
	}{
		{name: "no list is all", bot: meta.Bot{}, want: all},
		{name: "empty list is none", bot: meta.Bot{Listed: true, Notifications: []string{}}, want: [6]bool{}},
		{name: "case-insensitive, unknown names ignored", bot: meta.Bot{Listed: true, Notifications: []string{"Match-Ended", "bogus"}}, want: [6]bool{giretra.MatchEnded: true}},
	} {
		if got := BotEvents(&tc.bot); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The repository's own bot.meta.json subscribes only to events the engine
// knows.
func TestRepositoryMetaEvents(t *testing.T) {
	m, err := meta.Load("../../bot.meta.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range m.Notifications {
		if !slices.Contains(giretra.EventNames(), n) {
			t.Errorf("notification %q is not an engine event", n)
		}
	}
}
