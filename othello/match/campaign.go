package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/stats"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/wire"
)

// CampaignConfig is a run of matches between two players, A and B, mode
// after mode (othello-match).
type CampaignConfig struct {
	Modes       []othello.Mode
	N           int // matches per mode
	Concurrency int // matches played at once (0: 1)
	// Seed draws the openings: match i of a mode starts from
	// RandomOpening with the stream (Seed, i·1000 + mode), whatever the
	// players and the concurrency.
	Seed    uint64
	Players [2]players.Player // A, B
	// Clock, MaxThink, ClockB, MaxThinkB and Sequential are each match's
	// (Config).
	Clock, MaxThink, ClockB, MaxThinkB time.Duration
	Sequential                         bool
	// SPRT, when set, stops a mode once its sequential test of A's
	// scores decides.
	SPRT *stats.SPRT
	// Record, when set, is the folder each match's two legs are written
	// to, a file a match (othello/record).
	Record string
	// Stderr is the engine commands' stderr (nil: discarded).
	Stderr io.Writer
}

// Tally is a mode's matches, from A's side.
type Tally struct {
	Mode                         othello.Mode
	Matches, Wins, Losses, Draws int
	Discs                        [2]int            // per participant
	Failures                     [2]map[string]int // per participant: legs lost by kind
	MaxMove, Used                [2]time.Duration  // per participant: longest answer, clock used
	Moves                        [2]int            // per participant
	Scores                       []float64         // A's score per match: 1 win, 0.5 draw, 0 loss
	Margins                      []float64         // A's discs minus B's per match
	Verdict                      stats.Verdict     // the sequential test's, when there is one
	LLR                          float64
}

// Report is what a campaign played: a tally a mode, in the order played.
type Report struct {
	Modes []*Tally
}

// FailedA reports whether A lost a leg on time, by an illegal move or by
// an engine failure in any mode.
func (r *Report) FailedA() bool {
	for _, t := range r.Modes {
		if len(t.Failures[0]) > 0 {
			return true
		}
	}
	return false
}

// Event is what a campaign's progress is told: a match finished (Result
// set), a mode finished (Result nil), or a record not written (Err).
type Event struct {
	Mode   othello.Mode
	Match  int // from 0
	Result *Result
	Tally  *Tally // the mode's so far
	Err    error
}

// Campaign plays cfg's matches, mode after mode, and tells progress (nil:
// nobody) of each, one call at a time. Cut short (ctx done), it returns
// what was finished, a match cut short left out, with ctx's error.
func Campaign(ctx context.Context, cfg CampaignConfig, progress func(Event)) (*Report, error) {
	if cfg.N < 1 || cfg.Concurrency < 0 {
		return nil, errors.New("a campaign plays at least one match a mode, with a concurrency of at least 1")
	}
	for _, p := range cfg.Players {
		for _, m := range cfg.Modes {
			if p.StdOnly() && m != othello.Std {
				return nil, fmt.Errorf("%s is an NBoard engine: it plays std only, not %v", p.Name, m)
			}
		}
	}
	if progress == nil {
		progress = func(Event) {}
	}
	rep := &Report{}
	for _, mode := range cfg.Modes {
		t := cfg.playMode(ctx, mode, progress)
		rep.Modes = append(rep.Modes, t)
		progress(Event{Mode: mode, Tally: t})
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	return rep, nil
}

// playMode plays the matches of one mode on cfg.Concurrency workers.
func (cfg *CampaignConfig) playMode(ctx context.Context, mode othello.Mode, progress func(Event)) *Tally {
	t := &Tally{Mode: mode, Failures: [2]map[string]int{{}, {}}}
	decided := make(chan struct{}) // closed when the sequential test decides
	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(cfg.Concurrency, 1) {
		wg.Go(func() {
			for i := range jobs {
				res, recErr, ok := cfg.playMatch(ctx, mode, i)
				if !ok {
					continue
				}
				mu.Lock()
				if recErr != nil {
					progress(Event{Mode: mode, Match: i, Tally: t, Err: recErr})
				}
				t.add(res)
				progress(Event{Mode: mode, Match: i, Result: &res, Tally: t})
				if cfg.SPRT != nil && t.Verdict == stats.Continue {
					if t.LLR, t.Verdict = cfg.SPRT.Test(t.Scores); t.Verdict != stats.Continue {
						close(decided)
					}
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range cfg.N {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		case <-decided:
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return t
}

// playMatch plays match i of mode and writes its record; ok is false for
// a match cut short, which is no result.
func (cfg *CampaignConfig) playMatch(ctx context.Context, mode othello.Mode, i int) (res Result, recErr error, ok bool) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)*1000+uint64(mode)))
	start, opening := RandomOpening(mode, rng)
	mc := Config{
		Mode: mode, Clock: cfg.Clock, MaxThink: cfg.MaxThink, ClockB: cfg.ClockB, MaxThinkB: cfg.MaxThinkB, MatchID: int64(i + 1), Sequential: cfg.Sequential,
		NewEngine: func(p, _ int) wire.Engine { return cfg.start(p, mode) },
	}
	began := time.Now()
	res = Play(ctx, mc, start, opening)
	if ctx.Err() != nil {
		return res, nil, false
	}
	if cfg.Record != "" {
		var who [2]record.Player
		for p, pl := range cfg.Players {
			who[p] = record.Player{Name: pl.Name, Kind: pl.Kind}
		}
		recErr = writeRecords(cfg.Record, mode, i, res.Records(mc, who, began))
	}
	return res, recErr, true
}

// start starts participant p's engine for a leg of mode.
func (cfg *CampaignConfig) start(p int, mode othello.Mode) wire.Engine {
	e, err := cfg.Players[p].Start(players.Leg{Mode: mode, Timed: true, Stderr: cfg.Stderr})
	if err != nil {
		return wire.Failed(err)
	}
	return e
}

// add counts a match.
func (t *Tally) add(r Result) {
	t.Matches++
	switch r.Winner {
	case 0:
		t.Wins++
		t.Scores = append(t.Scores, 1)
	case 1:
		t.Losses++
		t.Scores = append(t.Scores, 0)
	default:
		t.Draws++
		t.Scores = append(t.Scores, 0.5)
	}
	t.Discs[0] += r.Totals[0]
	t.Discs[1] += r.Totals[1]
	t.Margins = append(t.Margins, float64(r.Totals[0]-r.Totals[1]))
	for _, l := range r.Legs {
		for c := range 2 {
			p := l.BlackParticipant
			if c == 1 {
				p = 1 - p
			}
			t.MaxMove[p] = max(t.MaxMove[p], l.MaxMove[c])
			t.Used[p] += l.Used[c]
		}
		if l.Failed != 0 {
			p := l.BlackParticipant
			if l.Failed == othello.White {
				p = 1 - p
			}
			t.Failures[p][l.Failure]++
		}
		// Moves per participant: black moves first, so it has the extra one.
		bm := (l.Moves + 1) / 2
		t.Moves[l.BlackParticipant] += bm
		t.Moves[1-l.BlackParticipant] += l.Moves - bm
	}
}

// MeanAnswer is participant p's mean time an answer.
func (t *Tally) MeanAnswer(p int) time.Duration {
	if t.Moves[p] == 0 {
		return 0
	}
	return t.Used[p] / time.Duration(t.Moves[p])
}

// writeRecords writes a match's legs to dir, a file a match.
func writeRecords(dir string, mode othello.Mode, i int, legs [2]record.Leg) error {
	var b bytes.Buffer
	for k := range legs {
		if err := record.Append(&b, &legs[k]); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-match-%04d.jsonl", mode, i+1)), b.Bytes(), 0o644)
}
