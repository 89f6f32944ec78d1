package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/cli"
)

// Env is what run reads (the environment) and writes to.
type Env struct {
	Getenv func(string) string
	Stdout io.Writer
	Stderr io.Writer
}

// Options are the parsed command line.
type Options struct {
	Mode        string
	Args        []string
	Matches     int
	Target      int
	Sweep       int
	Seed        int64
	Seeded      bool // -seed was given: session seeds are sent to bots
	DrawnSeed   bool // -seed 0: the seed was drawn at random
	Shuffle     bool // false: decks from an unseeded stream, as giretra-manage --shuffle false
	Seats       string
	Concurrency int
	Dialect     wire.Dialect
	DialectName string
	Notify      *[6]bool
	Opponent    string
	Partner     string
	LimitMS     int
	Verbose     bool
	Determinism bool
	Duplicate   bool
	JSON        bool
	NoProgress  bool
	EloK        float64
	Elo1, Elo2  float64
	RecordDir   string
	BotsDir     string
	DecisionTO  time.Duration
	NotifyTO    time.Duration

	// swiss
	Rounds                int
	EloInit               float64
	KMax, KMin, KHalfLife float64
	Baseline, Candidate   string // compare
	Margin, Alpha, Beta   float64
	MinPairs              int
	Registry              *Registry
}

type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg + " (see giretra-ref help)" }

func UsageErr(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// emit prints a report: as JSON with -json, else as text.
func emit(o *Options, env *Env, rep any, text func(io.Writer)) error {
	if o.JSON {
		return writeJSON(env.Stdout, rep)
	}
	text(env.Stdout)
	return nil
}

// ending is a run's error once its report is out: ErrFailed (exit 1)
// when it failed, the interrupt (exit 2) when a signal cut it short.
func ending(ctx context.Context, failed bool) error {
	switch {
	case failed:
		return ErrFailed
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return nil
}

// plan is the run-wide rules of the matches.
func (o *Options) plan(command string) *plan {
	p := &plan{command: command, matches: o.Matches, target: o.Target, sweep: o.Sweep, seed: o.Seed, seeded: o.Seeded,
		seats: o.Seats, concurrency: o.Concurrency, limitMS: o.LimitMS, recordDir: o.RecordDir, dialect: o.Dialect,
		deckSeed: o.Seed + 50000}
	if !o.Shuffle {
		p.deckSeed = rand.Int64()
	}
	return p
}

// sideOptions are the flags that shape HTTP sides.
func (o *Options) sideOptions() sideOptions {
	return sideOptions{Dialect: o.Dialect, Notify: o.Notify, Concurrency: o.Concurrency, DecisionTO: o.DecisionTO, NotifyTO: o.NotifyTO}
}

// open opens one bot of the command line.
func (o *Options) open(ctx context.Context, spec string, logw io.Writer) (*side, error) {
	bs, err := o.Registry.Resolve(spec)
	if err != nil {
		return nil, err
	}
	return openSide(ctx, spec, bs, o.sideOptions(), logw)
}

// openSides opens both teams (and the first one's partner); on failure
// those already open are closed again.
func (o *Options) openSides(ctx context.Context, specA, specB string, logw io.Writer) (*side, *side, *side, error) {
	a, err := o.open(ctx, specA, logw)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := o.open(ctx, specB, logw)
	if err != nil {
		a.close()
		return nil, nil, nil, err
	}
	if a.name == b.name {
		a.name, b.name = a.name+" (a)", b.name+" (b)"
	}
	var partner *side
	if o.Partner != "" {
		if partner, err = o.open(ctx, o.Partner, logw); err != nil {
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

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// progress draws a one-line bar on stderr when it is a terminal.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	total int
	done  int
	aWins int
	errs  int
}

func newProgress(env *Env, o *Options, total int) *progress {
	on := !o.NoProgress && env.Getenv("CI") == "" && cli.IsTerminal(env.Stderr)
	return &progress{w: env.Stderr, on: on, total: total}
}

func (p *progress) update(r *matchRecord) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if r.Err != nil {
		if !errors.Is(r.Err, context.Canceled) {
			p.errs++
		}
	} else if r.Result.Winner == r.ATeam {
		p.aWins++
	}
	if !p.on {
		return true
	}
	const width = 30
	n := min(width, p.done*width/max(1, p.total))
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d  first bot won %d  errors %d ", strings.Repeat("#", n), strings.Repeat(".", width-n), p.done, p.total, p.aWins, p.errs)
	return true
}

func (p *progress) finish() {
	if p.on && p.done > 0 {
		fmt.Fprintln(p.w)
	}
}
