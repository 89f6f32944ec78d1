package referee

import (
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
)

// TestFirstDifference: a deal is classed by the first decision where the
// two tables part, and by whose it was.
func TestFirstDifference(t *testing.T) {
	mode := func(m giretra.Mode) *record.Mode { r := record.Mode(m); return &r }
	bids := func(modes ...giretra.Mode) []record.BidLine {
		var bs []record.BidLine
		for i, m := range modes { // dealer Bottom: Left speaks first
			seat := record.Seat((1 + i) % 4)
			if m == giretra.NoMode {
				bs = append(bs, record.BidLine{Seat: seat, Action: record.ActionType(giretra.Accept)})
				continue
			}
			bs = append(bs, record.BidLine{Seat: seat, Action: record.ActionType(giretra.Announce), Mode: mode(m)})
		}
		return bs
	}
	c := func(s string) giretra.Card {
		var x giretra.Card
		if err := x.UnmarshalText([]byte(s)); err != nil {
			panic(err)
		}
		return x
	}
	// Eight tricks led by Left; play is the same unless changed below.
	tricks := func(change map[[2]int]string) []record.TrickLine {
		deck := []string{"7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD",
			"7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"}
		ts := make([]record.TrickLine, 8)
		for i := range ts {
			ts[i] = record.TrickLine{Trick: i + 1, Leader: record.Seat(giretra.Left)}
			for j := range 4 {
				s := deck[4*i+j]
				if x, ok := change[[2]int{i, j}]; ok {
					s = x
				}
				ts[i].Cards = append(ts[i].Cards, c(s))
			}
		}
		return ts
	}
	deal := func(b []record.BidLine, announcer giretra.Position, ts []record.TrickLine) *record.Deal {
		return &record.Deal{Bids: b, Contract: &record.ContractLine{Announcer: record.Seat(announcer)}, Tricks: ts}
	}
	base := deal(bids(giretra.ColourHearts, giretra.NoMode, giretra.NoMode, giretra.NoMode), giretra.Left, tricks(nil))
	// The subject's team is Team1 (Bottom, Top); Left and Right defend it.
	for _, tc := range []struct {
		name  string
		other *record.Deal
		want  string
	}{
		{"same", deal(base.Bids, giretra.Left, tricks(nil)), ""},
		{"our bid (Top's)", deal(bids(giretra.ColourHearts, giretra.AllTrumps, giretra.NoMode, giretra.NoMode, giretra.NoMode), giretra.Top, tricks(nil)), LossBid},
		{"their bid (Left's)", deal(bids(giretra.ColourSpades, giretra.NoMode, giretra.NoMode, giretra.NoMode), giretra.Left, tricks(nil)), LossTable},
		{"our card in defence (Top follows)", deal(base.Bids, giretra.Left, tricks(map[[2]int]string{{1, 1}: "AS"})), LossDefence},
		{"their card", deal(base.Bids, giretra.Left, tricks(map[[2]int]string{{0, 2}: "AS"})), LossTable},
		{"endgame", deal(base.Bids, giretra.Left, tricks(map[[2]int]string{{6, 1}: "7C"})), LossEndgame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, same := firstDifference(base, tc.other, giretra.Team1)
			if same != (tc.want == "") || got != tc.want {
				t.Errorf("class %q (same %v), want %q", got, same, tc.want)
			}
		})
	}
	// As declarer: a following card is the declarer's, a leading card a lead.
	decl := deal(bids(giretra.NoMode, giretra.ColourHearts, giretra.NoMode, giretra.NoMode, giretra.NoMode), giretra.Bottom, tricks(nil))
	for _, tc := range []struct {
		change map[[2]int]string
		want   string
	}{
		{map[[2]int]string{{2, 1}: "AS"}, LossDeclarer},
		{map[[2]int]string{{2, 0}: "AS"}, LossTable}, // Left leads
	} {
		o := deal(decl.Bids, giretra.Bottom, tricks(tc.change))
		if got, _, _ := firstDifference(decl, o, giretra.Team1); got != tc.want {
			t.Errorf("declarer %v: class %q, want %q", tc.change, got, tc.want)
		}
	}
	lead := deal(decl.Bids, giretra.Bottom, tricks(nil))
	for i := range lead.Tricks {
		lead.Tricks[i].Leader = record.Seat(giretra.Top)
	}
	o := deal(decl.Bids, giretra.Bottom, tricks(map[[2]int]string{{0, 0}: "AS"}))
	for i := range o.Tricks {
		o.Tricks[i].Leader = record.Seat(giretra.Top)
	}
	if got, _, _ := firstDifference(lead, o, giretra.Team1); got != LossLead {
		t.Errorf("Top's lead: class %q, want %q", got, LossLead)
	}
}

// TestLossesCampaigns: records of two campaigns on the same seed pair up
// deal by deal. A player against itself loses nothing; against another
// player every compared deal is either played the same or classed, and
// the classes' margins add up to the difference of the two runs' margins
// over the compared deals.
func TestLossesCampaigns(t *testing.T) {
	run := func(me string) []*record.Match {
		c := Campaign{Me: me, Opp: "eva", N: 4, Target: 151, Sweep: 25, Duplicate: true, Concurrency: 2, Seed: 77, RecordDir: t.TempDir()}
		res, err := c.Play(t.Context(), nil)
		if err != nil || res.Errs > 0 || res.Played != c.N {
			t.Fatalf("%s: %v, %d played, %d errors", me, err, res.Played, res.Errs)
		}
		ms, err := record.ReadDir(c.RecordDir)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != c.N {
			t.Fatalf("%d records, want %d", len(ms), c.N)
		}
		return ms
	}
	calc, random := run("calculating"), run("random")
	self, err := Losses(calc, run("calculating"))
	if err != nil {
		t.Fatal(err)
	}
	if self.Matches != 4 || self.Deals == 0 || self.Same != self.Deals || self.Different != 0 || self.Wins.N != 2 || self.Wins.Mean != 0 || self.Margin.Mean != 0 {
		t.Errorf("a player against itself: %+v", self)
	}
	r, err := Losses(random, calc)
	if err != nil {
		t.Fatal(err)
	}
	if r.Different != 0 || r.Deals == 0 {
		t.Fatalf("deals not paired: %+v", r)
	}
	net, counted := 0, r.Same
	for _, c := range LossClasses() {
		tl := r.Classes[c]
		net += tl.Gained - tl.Points
		counted += tl.Deals + tl.GainedDeals
		if tl.Flips > tl.Deals {
			t.Errorf("%s: %d flips in %d deals", c, tl.Flips, tl.Deals)
		}
	}
	if counted > r.Deals {
		t.Errorf("%d deals classed of %d", counted, r.Deals)
	}
	want := 0
	byMatch := map[int]*record.Match{}
	for _, m := range calc {
		byMatch[m.Header.Match] = m
	}
	for _, m := range random {
		o := byMatch[m.Header.Match]
		team := giretra.Team(m.Header.SubjectTeam)
		for i := range min(len(m.Deals), len(o.Deals)) {
			want += m.Deals[i].Result.Margin(record.Team(team)) - o.Deals[i].Result.Margin(record.Team(team))
		}
	}
	if net != want {
		t.Errorf("classes' net %+d, the runs' margins differ by %+d", net, want)
	}
	if r.Classes[LossBid].Deals+r.Classes[LossLead].Deals+r.Classes[LossDefence].Deals == 0 {
		t.Errorf("random against calculating lost nothing in bids, leads or defence: %+v", r.Classes)
	}
}
