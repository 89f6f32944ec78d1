package referee

import (
	"maps"
	"slices"
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
