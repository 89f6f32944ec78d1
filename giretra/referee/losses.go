package referee

import (
	"fmt"
	"maps"
	"slices"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/internal/stats"
)

// Where the bot loses points to a better-informed player: two record
// folders of the same matches (giretra-strength -duplicate -record on the
// same seed), one played by the bot, one by the bot told every hand (or
// any other player in its place). Deal n of match m was dealt the same
// cards in both; the deals the other player did better on are put in a
// class by the first decision where the two tables differ: a bid of the
// subject's team, the lead of a trick, a card in defence or as declarer,
// a card of the last three tricks. A first difference made by an
// opponent (they answer a different match score, or different cards seen
// earlier in the match) is the table's, not a class of the subject.

// Loss classes.
const (
	LossBid      = "bid"
	LossLead     = "lead"
	LossDefence  = "defence"
	LossDeclarer = "declarer"
	LossEndgame  = "endgame"
	LossTable    = "table"
)

// LossClasses lists the classes in report order.
func LossClasses() []string {
	return []string{LossBid, LossLead, LossDefence, LossDeclarer, LossEndgame, LossTable}
}

// endgameTricks is how many last tricks count as the endgame: where the
// bot's search is exact on each sampled deal, so the loss is one of
// information (what the hidden hands are), not of search.
const endgameTricks = 3

// LossTally counts a class's deals.
type LossTally struct {
	Deals int // deals the reference did better on
	Flips int // of them, deals the reference won and the subject did not
	// Points is the match points the subject's team lost against the
	// reference (its margin, summed over the deals).
	Points int
	// Gained is the same for the deals where the subject did better,
	// first differing in this class: what the class costs net is
	// Points − Gained.
	GainedDeals, Gained int
}

// LossReport compares the subject's deals with the reference's.
type LossReport struct {
	Matches, Deals int // paired matches, deals dealt the same in both
	Different      int // paired deals with other cards (not the same run)
	Same           int // deals played identically
	Classes        map[string]*LossTally
	// Contracts tallies the bid class's worse deals by the two
	// contracts, as "subject's → reference's" ("us NoTrumps x1 → them
	// AllTrumps x1"): deals and match points lost.
	Contracts map[string]*[2]int
	// Actions does the same by the first differing bids ("Accept →
	// Double AllTrumps").
	Actions map[string]*[2]int
	// ByTrick tallies the card classes' worse deals by the trick (1..8)
	// of the first difference: deals and match points lost.
	ByTrick map[string]*[8][2]int
	// Wins is the subject's share of matches won minus the reference's,
	// per unit: a duplicate pair of matches (numbers 2k+1 and 2k+2), or
	// one match when only one of the pair is paired; Margin the same for
	// the match points per compared deal. A match unfinished on either
	// side is left out of both.
	Wins, Margin stats.Mean
}

// Losses pairs the subject's records with the reference's by match
// number and classifies every deal dealt the same in both.
func Losses(subject, reference []*record.Match) (*LossReport, error) {
	byMatch := map[int]*record.Match{}
	for _, m := range reference {
		byMatch[m.Header.Match] = m
	}
	r := &LossReport{Classes: map[string]*LossTally{}, Contracts: map[string]*[2]int{}, Actions: map[string]*[2]int{}, ByTrick: map[string]*[8][2]int{}}
	for _, c := range LossClasses() {
		r.Classes[c] = &LossTally{}
	}
	type unit struct{ wins, matches, margin, deals int }
	units := map[int]*unit{}
	for _, s := range subject {
		o := byMatch[s.Header.Match]
		if o == nil {
			continue
		}
		if s.Header.Seed != o.Header.Seed || s.Header.SubjectTeam != o.Header.SubjectTeam || s.Header.FirstDealer != o.Header.FirstDealer {
			return nil, fmt.Errorf("match %d: %s and %s are not the same match (seed, seats or first dealer differ)", s.Header.Match, s.Path, o.Path)
		}
		r.Matches++
		u := &unit{} // counted in the deal classes only
		if s.Winner() >= 0 && o.Winner() >= 0 {
			k := (s.Header.Match - 1) / 2
			if units[k] == nil {
				units[k] = u
			}
			u = units[k]
			u.wins += s.Winner() - o.Winner()
			u.matches++
		}
		team := giretra.Team(s.Header.SubjectTeam)
		for i := range min(len(s.Deals), len(o.Deals)) {
			ds, do := s.Deals[i], o.Deals[i]
			if ds.Cut == nil || do.Cut == nil || ds.Result == nil || do.Result == nil {
				continue
			}
			if !sameHands(ds.Cut, do.Cut) {
				r.Different++
				continue
			}
			r.Deals++
			ms, mo := ds.Result.Margin(record.Team(team)), do.Result.Margin(record.Team(team))
			u.margin += ms - mo
			u.deals++
			class, at, same := firstDifference(ds, do, team)
			if same {
				r.Same++
				continue
			}
			r.count(class, at, ds, do, team, ms, mo)
		}
	}
	var wins, perDeal []float64
	for _, k := range slices.Sorted(maps.Keys(units)) {
		u := units[k]
		wins = append(wins, float64(u.wins)/float64(max(u.matches, 1)))
		perDeal = append(perDeal, float64(u.margin)/float64(max(u.deals, 1)))
	}
	r.Wins, r.Margin = stats.MeanCI(wins), stats.MeanCI(perDeal)
	return r, nil
}

// count tallies a deal of class whose tables first parted at at: the
// subject's margin ms on deal ds, the reference's mo on do.
func (r *LossReport) count(class string, at int, ds, do *record.Deal, team giretra.Team, ms, mo int) {
	t := r.Classes[class]
	switch {
	case mo > ms:
		t.Deals++
		t.Points += mo - ms
		if mo > 0 && ms <= 0 {
			t.Flips++
		}
		switch class {
		case LossBid:
			tallyPair(r.Contracts, contractName(ds, team)+" → "+contractName(do, team), mo-ms)
			tallyPair(r.Actions, bidName(ds.Bids, at)+" → "+bidName(do.Bids, at), mo-ms)
		case LossLead, LossDefence, LossDeclarer, LossEndgame:
			bt := r.ByTrick[class]
			if bt == nil {
				bt = new([8][2]int)
				r.ByTrick[class] = bt
			}
			bt[at][0]++
			bt[at][1] += mo - ms
		}
	case ms > mo:
		t.GainedDeals++
		t.Gained += ms - mo
	}
}

func sameHands(a, b *record.CutLine) bool {
	for p := range 4 {
		if record.Hand(a.Hands[p]) != record.Hand(b.Hands[p]) {
			return false
		}
	}
	return true
}

func tallyPair(m map[string]*[2]int, key string, lost int) {
	t := m[key]
	if t == nil {
		t = new([2]int)
		m[key] = t
	}
	t[0]++
	t[1] += lost
}

// bidName is bids[i] as "Announce AllTrumps", or "(none)" past the end.
func bidName(bids []record.BidLine, i int) string {
	if i >= len(bids) {
		return "(none)"
	}
	s := giretra.ActionType(bids[i].Action).String()
	if bids[i].Mode != nil {
		s += " " + giretra.Mode(*bids[i].Mode).String()
	}
	return s
}

// firstDifference is the class of the first decision where deals a and b
// differ, team being the subject's, and where: the bid's index, or the
// trick's (0..7) for a card; same when they do not differ.
func firstDifference(a, b *record.Deal, team giretra.Team) (class string, bid int, same bool) {
	for i := range max(len(a.Bids), len(b.Bids)) {
		if i < len(a.Bids) && i < len(b.Bids) && sameBid(a.Bids[i], b.Bids[i]) {
			continue
		}
		// Bidding ends at the same point only after the same actions, so
		// a longer list differs at its first extra action, whose seat is
		// the same in both (turns go round).
		seat := giretra.Position(0)
		if i < len(a.Bids) {
			seat = giretra.Position(a.Bids[i].Seat)
		} else {
			seat = giretra.Position(b.Bids[i].Seat)
		}
		if seat.Team() != team {
			return LossTable, i, false
		}
		return LossBid, i, false
	}
	if a.Contract == nil || b.Contract == nil {
		return "", 0, true
	}
	declarer := giretra.Position(a.Contract.Announcer).Team() == team
	for t := range min(len(a.Tricks), len(b.Tricks)) {
		ta, tb := a.Tricks[t], b.Tricks[t]
		for j := range min(len(ta.Cards), len(tb.Cards)) {
			if ta.Cards[j] == tb.Cards[j] {
				continue
			}
			seat := giretra.Position((int(ta.Leader) + j) % 4)
			switch {
			case seat.Team() != team:
				return LossTable, 0, false
			case t >= 8-endgameTricks:
				return LossEndgame, t, false
			case j == 0:
				return LossLead, t, false
			case declarer:
				return LossDeclarer, t, false
			}
			return LossDefence, t, false
		}
	}
	return "", 0, true
}

func sameBid(a, b record.BidLine) bool {
	if a.Seat != b.Seat || a.Action != b.Action || (a.Mode == nil) != (b.Mode == nil) {
		return false
	}
	return a.Mode == nil || *a.Mode == *b.Mode
}

// contractName is a deal's contract seen from team: who announced it
// (us, them), the mode and the multiplier.
func contractName(d *record.Deal, team giretra.Team) string {
	if d.Contract == nil {
		return "none"
	}
	who := "them"
	if giretra.Position(d.Contract.Announcer).Team() == team {
		who = "us"
	}
	return fmt.Sprintf("%s %v x%d", who, giretra.Mode(d.Contract.Mode), giretra.Multiplier(d.Contract.Multiplier).Factor())
}
