package players

import (
	"strings"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/meta"
)

// BotEvents is the set of notifications the engine posts to a bot, indexed
// by giretra.EventKind: all six when its bot.meta.json has no list, else
// those listed.
func BotEvents(b *meta.Bot) [6]bool {
	if !b.Listed {
		return AllEvents()
	}
	return EventSet(b.Notifications)
}

// AllEvents is every notification.
func AllEvents() [6]bool { return [6]bool{true, true, true, true, true, true} }

// EventSet is the set of the named notifications, matched
// case-insensitively; names the engine does not know are ignored, as the
// engine ignores them.
func EventSet(names []string) [6]bool {
	var out [6]bool
	for _, n := range names {
		if k, ok := giretra.ParseEventKind(strings.ToLower(n)); ok {
			out[k] = true
		}
	}
	return out
}
