package referee

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// TestCountContracts: a deal is credited to the seat that announced it,
// and to whole teams when the announcers do not match the deals.
func TestCountContracts(t *testing.T) {
	me := giretra.Left
	deals := []giretra.DealResult{
		{Mode: giretra.AllTrumps, Multiplier: giretra.Normal, AnnouncerTeam: me.Team(), MatchPoints: [2]int{0, 26}},
		{Mode: giretra.NoTrumps, Multiplier: giretra.Doubled, AnnouncerTeam: me.Team(), MatchPoints: [2]int{0, 104}},
		{Mode: giretra.ColourClubs, Multiplier: giretra.Normal, AnnouncerTeam: me.Team().Other(), MatchPoints: [2]int{32, 0}},
	}
	for _, tc := range []struct {
		name       string
		announcers []giretra.Position
		want       []string
	}{
		{"by seat", []giretra.Position{me, me.Partner(), me.Next()}, []string{"me   alltrumps x1", "opp  clubs x1", "ptnr notrumps x2"}},
		{"misaligned", []giretra.Position{me}, []string{"opp  clubs x1", "team alltrumps x1", "team notrumps x2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tally := map[string]*[4]int{}
			countContracts(tally, deals, me, tc.announcers)
			keys := slices.Sorted(maps.Keys(tally))
			if !slices.Equal(keys, tc.want) {
				t.Fatalf("keys %q, want %q", keys, tc.want)
			}
			if st := tally[tc.want[len(tc.want)-1]]; st[0] != 1 || st[1] != 1 || st[2] != 104 || st[3] != 0 {
				t.Errorf("doubled NoTrumps made by the team under test: %v", *st)
			}
		})
	}
}

// TestNewPlayerSpecs: the specs giretra-strength measures name one player
// each; anything else is an error naming what is wrong, never the default
// bot measured in silence.
func TestNewPlayerSpecs(t *testing.T) {
	tests := []struct {
		spec    string
		wantErr string // "": a player
	}{
		{"bot", ""},
		{"bot:fast:noinf:dd:models:linear", ""},
		{"bot:effort=0.5:budget=1s", ""},
		{"bot:oracle=full", ""},
		{"bot:oracle=partner@bid", ""},
		{"bot:oracle=opponents@play", ""},
		{"evabid+bot:fast", ""},
		{"evaplay+bot", ""},
		{"evalead+bot:noinf", ""},
		{"evafollow+bot:budget=100ms", ""},
		{"eva", ""},
		{"noisy-eva", ""},
		{"bot:budgte=1s", `"budgte=1s"`},
		{"bot:fats", `"fats"`},
		{"bot:", `""`},
		{"bot::fast", `""`},
		{"bot:fast=1", `"fast=1"`},
		{"bot:budget", `"budget"`},
		{"bot:budget=1parsec", "bad budget=1parsec"},
		{"bot:budget=0s", "bad budget=0s"},
		{"bot:budget=-1s", "bad budget=-1s"},
		{"bot:effort=lots", "bad effort=lots"},
		{"bot:effort=0", "bad effort=0"},
		{"bot:effort=NaN", "bad effort=NaN"},
		{"bot:effort=+Inf", "bad effort=+Inf"},
		{"bot:oracle=everyone", "bad oracle=everyone"},
		{"bot:oracle=full@cut", "bad oracle=full@cut"},
		{"bottom", `unknown agent "bottom"`},
		{"evabid+eva", `evabid+ wants a bot spec after it`},
		{"evaplay+bot:budgte=1s", `"budgte=1s"`},
		{"nobody", `unknown agent "nobody"`},
	}
	for _, tt := range tests {
		p, err := NewPlayer(tt.spec, nil, nil)
		switch {
		case tt.wantErr == "" && (err != nil || p == nil):
			t.Errorf("%s: %v", tt.spec, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: %v, want an error with %s", tt.spec, err, tt.wantErr)
		}
	}
}
