package table

import (
	"testing"

	"github.com/botarena/gamebot/giretra/words"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	tables "github.com/botarena/gamebot/internal/table"
)

// FuzzSetup: whatever a page posts as a Giretra setup is read and its
// seats resolved (nothing launched) or refused as the person's mistake,
// never an internal error or a panic.
func FuzzSetup(f *testing.F) {
	for _, s := range []string{
		`{"seats": ["you", "Eva", "bot", "Eva"], "target": 151, "seed": 3}`,
		`{"seats": ["you", "person", "bot", "http://127.0.0.1:1/x"], "pace": 0, "firstDealer": "Left"}`,
		`{"seats": ["bot", "Kialasoa", "Razazavavy", "Sakabelou"], "paused": true, "cuts": [{"position": 6, "fromTop": true}]}`,
		`{"seats": ["you", "../x", "u@h", "http://h.invalid"]}`, `{"target": 0}`, `[]`, `{"seats": [1]}`,
	} {
		f.Add(s)
	}
	g := &game{cfg: Config{BotHosts: tables.BotHosts{Loopback: true}}}
	w := words.Words{P: i18n.For(i18n.FR)}
	f.Fuzz(func(t *testing.T, body string) {
		var o Options
		if err := problem.DecodeStrict([]byte(body), &o); err != nil {
			if problem.KindOf(err) == problem.Internal {
				t.Fatalf("%q: %v", body, err)
			}
			return
		}
		if _, err := o.check(w); err != nil {
			if problem.KindOf(err) == problem.Internal {
				t.Fatalf("%q: %v", body, err)
			}
			return
		}
		for _, seat := range o.Seats {
			if _, err := g.resolveSeat(w, seat); err != nil && problem.KindOf(err) == problem.Internal {
				t.Fatalf("%q: seat %q: %v", body, seat, err)
			}
		}
	})
}
