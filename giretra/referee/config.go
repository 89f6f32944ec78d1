package referee

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/wire"
)

// Setup is what every command that plays matches shares: the table's
// rules, the seeds, how bot servers are reached, where records go, and
// what the run tells as it goes.
type Setup struct {
	Target int
	Sweep  int // Colour sweep points × multiplier; 0: a Colour sweep wins the match
	Seed   int64
	// Seeded sends session seeds to bot servers: the engine sends them
	// only in runs given a seed.
	Seeded bool
	// Shuffle deals every match's decks from Seed (Seed+50000, as the
	// engine). False deals them from DeckSeed, which the caller draws so
	// that the decks do not repeat, as giretra-manage --shuffle false.
	Shuffle  bool
	DeckSeed int64
	// Seats is where the first bot sits in validate and benchmark:
	// "team1" (Bottom+Top), "team2" (Left+Right) or "alternate".
	Seats string
	// Partner, when set, is the first bot's partner: the bot plays one
	// seat of its team (Bottom or Left), the partner the other.
	Partner     string
	Concurrency int // matches played at once
	Dialect     wire.Dialect
	// Notify is the notifications sent to bots given by URL; nil: all of
	// them, or the seed document's five in the seed dialect. A folder's
	// bot.meta.json says its own.
	Notify *[6]bool
	// DecisionTimeout and NotifyTimeout bound the HTTP calls (0: the
	// engine's, remote.DecisionTimeout and remote.NotifyTimeout).
	DecisionTimeout, NotifyTimeout time.Duration
	// RecordDir, when set, receives a game record per match.
	RecordDir string
	Registry  *players.Registry
	// Log, when set, is told what the bot launcher does (the init
	// command, the process started).
	Log func(msg string)
	// Progress, when set, is told after every match, from one goroutine
	// at a time.
	Progress func(Progress)
}

// Progress is a run's state after a match.
type Progress struct {
	Done, Total int
	FirstWins   int // matches the first bot won
	Errors      int // matches stopped by an error (an interrupt aside)
}

// DialectName is the dialect as reports show it.
func DialectName(d wire.Dialect) string {
	if d == wire.Seed {
		return "seed"
	}
	return "engine"
}

// plan is the run-wide rules of the matches.
func (s *Setup) plan(command string, matches int) *plan {
	p := &plan{command: command, matches: matches, target: s.Target, sweep: s.Sweep, seed: s.Seed, seeded: s.Seeded,
		seats: s.Seats, concurrency: s.Concurrency, recordDir: s.RecordDir, dialect: s.Dialect,
		deckSeed: s.Seed + 50000}
	if !s.Shuffle {
		p.deckSeed = s.DeckSeed
	}
	return p
}

// sideOptions are the settings that shape HTTP sides.
func (s *Setup) sideOptions() sideOptions {
	return sideOptions{Dialect: s.Dialect, Notify: s.Notify, Concurrency: s.Concurrency, DecisionTimeout: s.DecisionTimeout,
		NotifyTimeout: s.NotifyTimeout, Log: s.Log}
}

// open opens one bot.
func (s *Setup) open(ctx context.Context, spec string) (*side, error) {
	e, err := s.Registry.Resolve(spec)
	if err != nil {
		return nil, err
	}
	return openSide(ctx, spec, e, s.sideOptions())
}

// openSides opens both teams (and the first one's partner); on failure
// those already open are closed again.
func (s *Setup) openSides(ctx context.Context, specA, specB string) (*side, *side, *side, error) {
	a, err := s.open(ctx, specA)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := s.open(ctx, specB)
	if err != nil {
		a.close()
		return nil, nil, nil, err
	}
	if a.name == b.name {
		a.name, b.name = a.name+" (a)", b.name+" (b)"
	}
	var partner *side
	if s.Partner != "" {
		if partner, err = s.open(ctx, s.Partner); err != nil {
			a.close()
			b.close()
			return nil, nil, nil, err
		}
		if partner.name == a.name || partner.name == b.name {
			partner.name += " (partner)"
		}
	}
	return a, b, partner, nil
}

// tracker counts a run's matches for Progress.
type tracker struct {
	p  Progress
	to func(Progress)
}

func newTracker(to func(Progress), total int) *tracker {
	return &tracker{p: Progress{Total: total}, to: to}
}

// done counts a finished match (playAll's done: the runner calls it one
// match at a time).
func (t *tracker) done(r *matchRecord) bool {
	t.p.Done++
	switch {
	case r.Err == nil:
		if r.Result.Winner == r.ATeam {
			t.p.FirstWins++
		}
	case !isCanceled(r.Err):
		t.p.Errors++
	}
	if t.to != nil {
		t.to(t.p)
	}
	return true
}

// roundSeconds is a run's duration as reports give it.
func roundSeconds(d time.Duration) float64 { return math.Round(d.Seconds()*100) / 100 }

func isCanceled(err error) bool { return errors.Is(err, context.Canceled) }

// InfraError is a failure to set a bot up (init, launch, health) or to
// write a record: the engine's exit status 2.
type InfraError struct{ err error }

func (e *InfraError) Error() string { return e.err.Error() }
func (e *InfraError) Unwrap() error { return e.err }
