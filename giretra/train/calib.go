package train

import (
	"fmt"
	"math"
	"sort"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/search"
)

// CalibRow is, for one class of contracts, how much better they ended in
// the recorded play than the heuristic playout of the same deal says,
// from the announcing team's side, in the bid simulation's units.
type CalibRow struct {
	Class string  // "us colour x1", "them notrumps x1", …: us is the record's subject team
	N     int     // deals
	Mean  float64 // real − heuristic playout
	CI95  float64 // half-width of the mean's 95% interval
}

// CalibOptions say how Calibrate plays each deal again: by default every
// seat plays our heuristic.
type CalibOptions struct {
	// SolveFrom, when positive, has the subject team's seats play the
	// rest of the deal exactly, by the solver on the true hands, once
	// they hold at most this many cards (bot.PlayoutOptions).
	SolveFrom int
	// EvaOpponents has the other team's seats play as the Eva agent.
	EvaOpponents bool
}

// Calibrate measures CalibRows on recorded matches: each deal with a
// contract is played out again on its true hands as opt says, and its
// value set against the deal's recorded result.
func Calibrate(matches []*record.Match, opt CalibOptions) []CalibRow {
	type acc struct{ n, s, sq float64 }
	stats := map[string]*acc{}
	for _, m := range matches {
		sub := giretra.Team(m.Header.SubjectTeam)
		for _, d := range m.Deals {
			if d.Contract == nil || d.Result == nil || d.Cut == nil {
				continue
			}
			x, class := calibDeal(d, sub, opt)
			a := stats[class]
			if a == nil {
				a = &acc{}
				stats[class] = a
			}
			a.n++
			a.s += x
			a.sq += x * x
		}
	}
	rows := make([]CalibRow, 0, len(stats))
	for class, a := range stats {
		mean := a.s / a.n
		sd := math.Sqrt(max(a.sq/a.n-mean*mean, 0))
		rows = append(rows, CalibRow{Class: class, N: int(a.n), Mean: mean, CI95: 1.96 * sd / math.Sqrt(a.n)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Class < rows[j].Class })
	return rows
}

// calibDeal is one deal's real − playout value, and its class.
func calibDeal(d *record.Deal, sub giretra.Team, opt CalibOptions) (float64, string) {
	var hands [4]giretra.Set
	for p := range 4 {
		for _, c := range d.Cut.Hands[p] {
			hands[p] |= c.Bit()
		}
	}
	neg := giretra.Negotiation{Dealer: giretra.Position(d.Dealer)}
	for _, b := range d.Bids {
		a := giretra.Action{Type: giretra.ActionType(b.Action), Player: giretra.Position(b.Seat), Mode: giretra.NoMode}
		if b.Mode != nil {
			a.Mode = giretra.Mode(*b.Mode)
		}
		neg.Actions = append(neg.Actions, a)
	}
	c := giretra.Contract{Mode: giretra.Mode(d.Contract.Mode), Multiplier: giretra.Multiplier(d.Contract.Multiplier), Announcer: giretra.Position(d.Contract.Announcer)}
	team := c.AnnouncerTeam()
	match := giretra.NewMatchState(d.Target, giretra.Position(d.Dealer))
	match.Points = d.Score
	ms := search.MatchScore{Ours: d.Score[team], Theirs: d.Score[team.Other()], Target: d.Target}
	var po bot.PlayoutOptions
	for p := range giretra.Position(4) {
		if p.Team() == sub {
			po.Solve |= 1 << p
		} else if opt.EvaOpponents {
			po.Eva |= 1 << p
		}
	}
	po.SolveFrom = opt.SolveFrom
	played := bot.Playout(hands, c, &neg, team, ms, &match, po)
	r := d.Result
	swept := r.SweepBonus > 0 && r.Sweep != nil
	var sweeper giretra.Team
	if swept {
		sweeper = giretra.Team(*r.Sweep)
	}
	real := bot.RealValue(c, r.MatchPoints[team], r.MatchPoints[team.Other()], swept, sweeper, team, ms)
	who := "them"
	if team == sub {
		who = "us"
	}
	return real - played, fmt.Sprintf("%s %s x%d", who, giretra.FamilyNames[c.Mode.Family()], c.Multiplier.Factor())
}
