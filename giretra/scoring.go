package giretra

// DealResult is a scored deal, as the engine reports it.
type DealResult struct {
	Mode          Mode
	Multiplier    Multiplier
	AnnouncerTeam Team
	CardPoints    [2]int // per team, last-trick bonus included
	MatchPoints   [2]int // per team
	WasSweep      bool
	SweepingTeam  Team // NoTeam unless WasSweep
	IsInstantWin  bool
	// SweepBonus is the match points a Colour sweep adds to the sweeping
	// team's total when the match plays sweeps as points (benchmark/swiss);
	// MatchPoints stays 0-0 then, as in the engine's record.
	SweepBonus int
}

// roundTenths rounds n/10 half away from zero (n >= 0).
func roundTenths(n int) int { return (n + 5) / 10 }

// ScoreDeal scores a played deal (ScoringCalculator.cs). cardPoints and
// tricks are per team. colourSweepPoints is 0 when a Colour sweep wins the
// match outright (web app, validate), or the base points per multiplier a
// Colour sweep is worth instead (25 in benchmark and swiss).
func ScoreDeal(c Contract, cardPoints, tricks [2]int, colourSweepPoints int) DealResult {
	at := c.AnnouncerTeam()
	dt := at.Other()
	k := c.Multiplier.Factor()
	r := DealResult{Mode: c.Mode, Multiplier: c.Multiplier, AnnouncerTeam: at, CardPoints: cardPoints, SweepingTeam: NoTeam}
	for t := range 2 {
		if tricks[t] == 8 {
			r.WasSweep = true
			r.SweepingTeam = Team(t)
		}
	}
	if r.WasSweep {
		switch c.Mode {
		case AllTrumps:
			r.MatchPoints[r.SweepingTeam] = 35 * k
		case NoTrumps:
			r.MatchPoints[r.SweepingTeam] = 90 * k
		default:
			if colourSweepPoints > 0 {
				r.SweepBonus = colourSweepPoints * k
			} else {
				r.IsInstantWin = true
			}
		}
		return r
	}
	a, d := cardPoints[at], cardPoints[dt]
	award := func(t Team, pts int) { r.MatchPoints[t] = pts }
	switch {
	case c.Mode.IsColour():
		base := 16
		if c.Mode == ColourClubs {
			base = 32
		}
		switch {
		case a == d:
		case a >= 82:
			award(at, base*k)
		default:
			award(dt, base*k)
		}
	case c.Mode == NoTrumps:
		switch {
		case a == d:
		case a > d:
			award(at, 52*k)
		default:
			award(dt, 52*k)
		}
	default: // AllTrumps
		r.MatchPoints = allTrumpsPoints(at, a, d, k)
	}
	return r
}

// allTrumpsPoints is an AllTrumps deal's match points per team: doubled,
// 26×k to the announcer with 129 card points or more, else to the
// defenders; undoubled, each team's card points in tenths (the announcer
// at most 20, the defenders at least 6), unless the announcer falls
// short.
func allTrumpsPoints(at Team, a, d, k int) [2]int {
	var mp [2]int
	dt := at.Other()
	if k > 1 {
		switch {
		case a == d:
		case a >= 129:
			mp[at] = 26 * k
		default:
			mp[dt] = 26 * k
		}
		return mp
	}
	switch {
	case a < 129:
		mp[dt] = 26
	case a == 129:
	default:
		ar, dr := roundTenths(a), roundTenths(d)
		switch {
		case ar == dr:
		case dr < 6:
			mp[at] = 26
		default:
			ar = min(ar, 20)
			dr = max(dr, 6)
			if ar+dr > 26 {
				dr = 26 - ar
			}
			mp[at], mp[dt] = ar, dr
		}
	}
	return mp
}
