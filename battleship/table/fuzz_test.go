package table

import (
	"testing"

	"github.com/botarena/gamebot/battleship/words"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

// FuzzSetup: whatever a page posts as a battleship setup is read or
// refused as the person's mistake, never an internal error or a panic.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"width": 10, "height": 10, "ship2": 1, "first": "random", "seed": 4}`,
		`{"opponent": "url", "url": "http://127.0.0.1:1/battleship", "pace_ms": 0}`,
		`{"opponent": "dreadnought", "name": "ana"}`, `{"width": 0}`, `{"ship6": 10, "width": 3}`, `[]`, `{"widht": 1}`,
	} {
		f.Add(s)
	}
	cfg := Config{BotHosts: tables.BotHosts{Loopback: true}}
	w := words.Words{P: i18n.For(i18n.MG)}
	f.Fuzz(func(t *testing.T, body string) {
		if _, err := readOptions([]byte(body), cfg, w); err != nil && problem.KindOf(err) == problem.Internal {
			t.Fatalf("%q: %v", body, err)
		}
	})
}
