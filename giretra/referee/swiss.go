package referee

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/stats"
)

// The Swiss tournament of giretra-manage (src/Giretra.Manage/Swiss and
// SWISS-EVALUATION.md): every round pairs the participants by points then
// Elo, adjacent pairs play one match (the higher one at Bottom+Top, first
// dealer round % 4), and each match moves both ratings with a margin score
// and a K factor that decays with the participant's matches.

// Participant is one entrant of a Swiss tournament.
type Participant struct {
	side     *side
	order    int      // command-line order
	Name     string   `json:"agent"`
	Wins     int      `json:"wins"`
	Losses   int      `json:"losses"`
	Byes     int      `json:"byes"`
	Elo      float64  `json:"elo"`
	MinElo   float64  `json:"eloMin"`
	MaxElo   float64  `json:"eloMax"`
	Adjusted *float64 `json:"adjustedElo,omitempty"` // RandomPlayer = 1000
}

// Points is the entrant's wins and byes.
func (p *Participant) Points() int { return p.Wins + p.Byes }
func (p *Participant) played() int { return p.Wins + p.Losses }

// WinRate is the entrant's share of its matches won, in percent.
func (p *Participant) WinRate() float64 {
	if p.played() == 0 {
		return 0
	}
	return 100 * float64(p.Wins) / float64(p.played())
}

func (p *Participant) setElo(x float64) {
	p.Elo, p.MinElo, p.MaxElo = x, min(p.MinElo, x), max(p.MaxElo, x)
}

// byStanding is points then Elo, both descending; ties keep the list's
// order (a stable sort, as LINQ's OrderBy).
func byStanding(a, b *Participant) int {
	return cmp.Or(cmp.Compare(b.Points(), a.Points()), cmp.Compare(b.Elo, a.Elo))
}

// pairRound is SwissPairing.PairRound: sort by standing; with an odd
// count the bye goes to the fewest byes, then fewest points, then lowest
// Elo (the first such in standing order); then 1v2, 3v4, …
func pairRound(ps []*Participant) (pairs [][2]*Participant, bye *Participant) {
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, byStanding)
	if len(sorted)%2 == 1 {
		cand := slices.Clone(sorted)
		slices.SortStableFunc(cand, func(a, b *Participant) int {
			return cmp.Or(cmp.Compare(a.Byes, b.Byes), cmp.Compare(a.Points(), b.Points()), cmp.Compare(a.Elo, b.Elo))
		})
		bye = cand[0]
		sorted = slices.DeleteFunc(sorted, func(p *Participant) bool { return p == bye })
	}
	for i := 0; i+1 < len(sorted); i += 2 {
		pairs = append(pairs, [2]*Participant{sorted[i], sorted[i+1]})
	}
	return pairs, bye
}

// effectiveK is K_min + (K_max − K_min) / (1 + matches / halfLife).
func effectiveK(kMax, kMin float64, matches int, halfLife float64) float64 {
	return kMin + (kMax-kMin)/(1+float64(matches)/halfLife)
}

// marginScore is 0.5 + 0.5·clamp((winner − loser) / target, 0, 1): the
// winner's actual score, against the configured target.
func marginScore(winner, loser, target int) float64 {
	return 0.5 + 0.5*min(1, max(0, float64(winner-loser)/float64(target)))
}

// SwissMatch is one played pairing.
type SwissMatch struct {
	Round  int    `json:"round"`
	Team1  string `json:"team1"`
	Team2  string `json:"team2"`
	Score  [2]int `json:"score"`
	Winner string `json:"winner"`
	Deals  int    `json:"deals"`
}

// SwissReport is swiss's result: the final ranking and every match.
type SwissReport struct {
	Participants []*Participant `json:"participants"` // final ranking
	Rounds       int            `json:"rounds"`
	Played       int            `json:"roundsPlayed"`
	Target       int            `json:"targetScore"`
	Seed         int64          `json:"seed"`
	Shuffle      bool           `json:"shuffle"`
	InitialElo   float64        `json:"initialElo"`
	KMax         float64        `json:"kMax"`
	KMin         float64        `json:"kMin"`
	KHalfLife    float64        `json:"kHalfLife"`
	Matches      []SwissMatch   `json:"matches"`
	Error        string         `json:"error,omitempty"`
	Interrupted  bool           `json:"interrupted,omitempty"`
	Seconds      float64        `json:"durationSeconds"`
}

// SwissConfig is a Swiss tournament, as the engine's swiss command plays
// it.
type SwissConfig struct {
	Setup
	Bots   []string // nil: every agent and discovered bot (Registry.All)
	Rounds int
	// Elo is every entrant's initial rating; K decays from KMax to KMin,
	// halfway after KHalfLife matches.
	Elo, KMax, KMin, KHalfLife float64
	// Round, when set, is told the entrants (round 0) once they are
	// open, then each round's results.
	Round func(SwissRound)
}

// SwissRound is a tournament's news: in round 0 the entrants, in command
// line order; then a round's matches played, in pairing order, and its
// bye ("": none).
type SwissRound struct {
	Round    int
	Entrants []string
	Matches  []SwissMatch
	Bye      string
}

// ErrTooFewEntrants: a Swiss tournament needs two entrants.
var ErrTooFewEntrants = errors.New("at least 2 entrants are required for a Swiss tournament")

// Swiss plays the tournament and returns its report. A match that fails
// ends it (Error); interrupted (ctx done), it reports the rounds played so
// far, marked Interrupted.
func Swiss(ctx context.Context, c SwissConfig) (*SwissReport, error) {
	names := c.Bots
	if len(names) == 0 {
		names = c.Registry.All()
	}
	if len(names) < 2 {
		return nil, ErrTooFewEntrants
	}
	if err := prepareRecordDir(c.RecordDir); err != nil {
		return nil, err
	}
	ps, err := c.openEntrants(ctx, names)
	defer func() {
		for _, p := range ps {
			p.side.close()
		}
	}()
	if err != nil {
		return nil, err
	}
	p := c.plan("swiss", 0)
	p.recordPrefix = "swiss"
	rep := &SwissReport{Rounds: c.Rounds, Target: p.target, Seed: p.seed, Shuffle: c.Shuffle, InitialElo: c.Elo,
		KMax: c.KMax, KMin: c.KMin, KHalfLife: c.KHalfLife, Matches: []SwissMatch{}}
	tell := c.Round
	if tell == nil {
		tell = func(SwissRound) {}
	}
	var entrants []string
	for _, q := range ps {
		entrants = append(entrants, q.Name)
	}
	tell(SwissRound{Entrants: entrants})
	start := time.Now()
	matchNo := 0
	for round := 1; round <= c.Rounds && rep.Error == "" && ctx.Err() == nil; round++ {
		pairs, bye := pairRound(ps)
		if bye != nil {
			bye.Byes++
		}
		games := roundGames(p, round, matchNo, pairs)
		matchNo += len(games)
		// The pairs of a round are disjoint: playing them at once and
		// rating them in pairing order is the engine's sequential result.
		recs := playAll(ctx, p, games, nil)
		news := SwissRound{Round: round}
		for i, r := range recs {
			p1, p2 := pairs[i][0], pairs[i][1]
			if r == nil || r.Err != nil {
				if r != nil && !isCanceled(r.Err) && rep.Error == "" {
					rep.Error = fmt.Sprintf("Round %d: match between '%s' and '%s' failed: %v", round, p1.Name, p2.Name, r.Err)
				}
				continue
			}
			m := c.rate(p1, p2, &r.Result, p.target)
			m.Round = round
			rep.Matches = append(rep.Matches, m)
			news.Matches = append(news.Matches, m)
		}
		if err := recordError(recs); err != nil {
			return nil, err
		}
		if rep.Error == "" && ctx.Err() == nil {
			rep.Played = round
		}
		if bye != nil {
			news.Bye = bye.Name
		}
		tell(news)
	}
	rep.Seconds = roundSeconds(time.Since(start))
	rep.Interrupted = ctx.Err() != nil
	rep.Participants = ranking(ps)
	return rep, nil
}

// roundGames is a round's matches, one per pair, numbered from first:
// the higher entrant of each pair at Team1, each side's seeds and match
// counter its own.
func roundGames(p *plan, round, first int, pairs [][2]*Participant) []game {
	games := make([]game, len(pairs))
	for i, pr := range pairs {
		n := first + i
		games[i] = game{index: n, a: pr[0].side, b: pr[1].side, aTeam: giretra.Team1, dealer: giretra.Position(round % 4),
			deck: uint64(n), round: round,
			seeds: [nSides]int64{p.seed + int64(pr[0].order)*10000, p.seed + int64(pr[1].order)*10000},
			k:     [nSides]int{pr[0].played(), pr[1].played()}}
	}
	return games
}

// openEntrants opens the entrants, numbering the names that repeat; on
// failure the entrants it opened come back, to close.
func (c *SwissConfig) openEntrants(ctx context.Context, names []string) ([]*Participant, error) {
	var ps []*Participant
	seen := map[string]int{}
	for i, spec := range names {
		s, err := c.open(ctx, spec)
		if err != nil {
			return ps, err
		}
		if seen[s.name]++; seen[s.name] > 1 {
			s.name = fmt.Sprintf("%s (%d)", s.name, seen[s.name])
		}
		ps = append(ps, &Participant{side: s, order: i, Name: s.name, Elo: c.Elo, MinElo: c.Elo, MaxElo: c.Elo})
	}
	return ps, nil
}

// rate counts the match p1 (Team1) played against p2 and moves both
// ratings by its margin score, with each one's decayed K.
func (c *SwissConfig) rate(p1, p2 *Participant, res *giretra.MatchResult, target int) SwissMatch {
	team1Won := res.Winner == giretra.Team1
	s1, s2 := res.Final.Points[0], res.Final.Points[1]
	k1 := effectiveK(c.KMax, c.KMin, p1.played(), c.KHalfLife)
	k2 := effectiveK(c.KMax, c.KMin, p2.played(), c.KHalfLife)
	w, l := s1, s2
	if !team1Won {
		w, l = s2, s1
	}
	margin := marginScore(w, l, target)
	a1 := margin
	if !team1Won {
		a1 = 1 - margin
	}
	e1, e2 := stats.EloExpected(p1.Elo, p2.Elo), stats.EloExpected(p2.Elo, p1.Elo)
	n1, n2 := p1.Elo+k1*(a1-e1), p2.Elo+k2*((1-a1)-e2)
	p1.setElo(n1)
	p2.setElo(n2)
	winner, loser := p1, p2
	if !team1Won {
		winner, loser = p2, p1
	}
	winner.Wins++
	loser.Losses++
	return SwissMatch{Team1: p1.Name, Team2: p2.Name, Score: [2]int{s1, s2}, Winner: winner.Name, Deals: len(res.Final.Deals)}
}

// ranking is the entrants by standing, with the Elo adjusted to
// random = 1000 when random plays.
func ranking(ps []*Participant) []*Participant {
	ranked := slices.Clone(ps)
	slices.SortStableFunc(ranked, byStanding)
	for _, q := range ranked {
		if q.side.isAgent("random") {
			for _, r := range ranked {
				adj := 1000 + (r.Elo - q.Elo)
				r.Adjusted = &adj
			}
			break
		}
	}
	return ranked
}

// Loser is the match's loser.
func (m *SwissMatch) Loser() string {
	if m.Winner == m.Team1 {
		return m.Team2
	}
	return m.Team1
}
