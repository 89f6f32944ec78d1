package othello

import (
	"context"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello/stdengine"
	"github.com/botarena/gamebot/othello/variants"
)

// Engine chooses moves, handing each mode to its engine (doc.go has the
// table). It is safe for concurrent use: each call borrows a searcher
// (with its own transposition table) from a small pool, so the two legs
// of a match can be searched at once.
type Engine struct {
	opts EngineOptions
	std  StdSettings

	stdPool  pool[*stdengine.Searcher] // std, with the std model
	antiPool pool[*stdengine.Searcher] // anti, with the anti model
	pool8    pool[*variants.Searcher8]
	pool10   pool[*variants.Searcher10]

	mu     sync.Mutex
	clocks map[clockKey]*clockObs // per (match, leg, colour): what the clock did
}

// EngineOptions tune an Engine. The zero value is usable.
type EngineOptions struct {
	// TTBits is log2 of the transposition-table entries of a generic
	// searcher (default 19: 20 MiB for 8×8, 28 MiB for
	// 10×10); the std engine's table has twice the entries (24 MiB).
	TTBits uint
	// MaxDepth caps the search depth (0: no cap). Fixed-depth play for
	// tests and measurements.
	MaxDepth int
	// FixedTime, when positive, replaces time management: every move
	// searches this long (still capped by budget_ms).
	FixedTime time.Duration
	// Pool is the number of searchers kept per engine (default 4).
	Pool int
	// SolveAt, when positive, replaces the clock's say on exact solving:
	// positions with at most SolveAt empties are solved exactly, at any
	// depth; others are searched to MaxDepth and never solved. For
	// self-play and measurements at fixed work.
	SolveAt int
	// Std, when set, replaces the std engine's settings (DefaultStd): for
	// measuring what each part of it brings and for trying another
	// evaluation.
	Std *StdSettings
	// Threads is how many searchers a search of the std engine (std, anti,
	// reversi's middle game) runs at once, sharing one table (stdengine's
	// parallel search); 0 or 1: one, the search exactly as alone. The
	// generic searcher searches with one.
	Threads int
	// Cores, when set, is shared with the other engines searching on this
	// machine at the same time (the connector's legs): a search then runs
	// at most Threads searchers, on the cores free when it starts, and
	// gives its helpers' cores back when another search starts and finds
	// none free.
	Cores *Cores
}

// StdSettings are the std engine's settings.
type StdSettings struct {
	MidgameSel     int               // multi-ProbCut selectivity of the midgame (stdengine.SelExact: none)
	ProbableSolves int               // how many empties before the exact solve the root starts probable solves (0: none)
	Without        stdengine.Without // parts of the search switched off
	Model          *stdengine.Model  // the std evaluation (nil: the embedded one)
	AntiModel      *stdengine.Model  // the anti evaluation (nil: the embedded one)
	// Errors, when set, is the ProbCut error model of the std game
	// instead of the one fitted for the embedded evaluation.
	Errors *stdengine.ErrorModel
	// GenericAnti plays anti with the generic searcher and its
	// hand-written evaluation, as the engine did before it had an anti
	// model: the reference the anti model is measured against.
	GenericAnti bool
}

// DefaultStd are the std engine's settings: ProbCut at 1.2σ in the
// midgame, probable solves from six empties before the exact solve.
func DefaultStd() StdSettings { return StdSettings{MidgameSel: 1, ProbableSolves: 6} }

// NewEngine returns an engine.
func NewEngine(opts EngineOptions) *Engine {
	if opts.TTBits == 0 {
		opts.TTBits = 19
	}
	if opts.Pool <= 0 {
		opts.Pool = 4
	}
	set := DefaultStd()
	if opts.Std != nil {
		set = *opts.Std
	}
	return &Engine{opts: opts, std: set,
		stdPool: newPool[*stdengine.Searcher](opts.Pool), antiPool: newPool[*stdengine.Searcher](opts.Pool),
		pool8: newPool[*variants.Searcher8](opts.Pool), pool10: newPool[*variants.Searcher10](opts.Pool)}
}

// Preload decodes the embedded evaluations an engine of options o plays
// std and anti with (nil: the defaults), so that its first move does not
// wait for them: the std model takes a quarter of a second to decode.
// Commands run it in a goroutine at start; a move that comes sooner
// waits for the same decoding, which happens once.
func Preload(o *EngineOptions) {
	set := DefaultStd()
	if o != nil && o.Std != nil {
		set = *o.Std
	}
	if set.Model == nil {
		stdengine.Embedded()
	}
	if set.AntiModel == nil && !set.GenericAnti {
		stdengine.EmbeddedAnti()
	}
}

// Decision is a chosen move with what the search learned.
type Decision struct {
	Move    int           // square, or Pass
	Score   float64       // expected final disc difference for the mover (estimate unless Exact)
	Depth   int           // completed search depth
	Exact   bool          // Score is the proven final result
	Nodes   uint64        // nodes searched, by every searcher
	Elapsed time.Duration // wall time of the search
	Threads int           // searchers it was given: its own and its helpers (0: no search)
}

// Choose decides the move for a validated position. It always returns a
// member of p.Legal, or Pass exactly when p.Legal is empty. It stops early
// when ctx is cancelled.
func (e *Engine) Choose(ctx context.Context, p *Position) Decision {
	start := time.Now()
	if len(p.Legal) == 0 {
		return Decision{Move: Pass}
	}
	key := clockKey{p.MatchID, p.Leg, p.State.Turn}
	s, std := e.plan(p, start, e.observe(key, p.RemainingMs))
	defer func() { e.record(key, p.RemainingMs, time.Since(start)) }()
	if e.opts.Cores != nil {
		var release func()
		s.threads, s.helpers, release = e.opts.Cores.take(s.threads)
		defer release()
	}
	var d Decision
	if std {
		d = e.chooseStd(ctx, p, s)
	} else {
		d = e.chooseVariant(ctx, p, s)
	}
	d.Elapsed, d.Threads = time.Since(start), s.threads
	return d
}

// search is one move's search as Choose plans it, for the engine that
// plays the mode.
type search struct {
	soft     time.Duration   // no new iteration after this
	deadline time.Time       // stop here (zero: no limit, a fixed depth)
	failLow  time.Time       // or here, in an iteration that fails low (zero: no extension)
	maxDepth int             // the deepest iteration
	exact    int             // the generic searcher solves from this many empties
	threads  int             // searchers: the main one and its helpers
	helpers  context.Context // calls the helpers back (nil: none)
	anti     bool            // the std engine with the anti model
	solve    bool            // the std engine may solve (false: reversi's middle game)
}

// plan sets a move's limits from the clock (overhead: the ms a move
// loses outside the search) and the options, and picks the engine: std
// when the std engine plays it, else the generic searcher.
func (e *Engine) plan(p *Position, start time.Time, overhead int64) (s search, std bool) {
	soft, hard, failLow := e.timePlan(p, overhead)
	s = search{soft: soft, deadline: start.Add(hard), maxDepth: 64, threads: 1, solve: true}
	if e.opts.MaxDepth > 0 {
		s.maxDepth = e.opts.MaxDepth
		if e.opts.FixedTime <= 0 {
			s.soft, s.deadline = 0, time.Time{}
		}
	}
	if !s.deadline.IsZero() && failLow > hard {
		s.failLow = start.Add(failLow)
	}
	st := p.State
	s.exact = exactEmptiesFor(hard, st.Mode.Size())
	if e.opts.SolveAt > 0 {
		s.exact = 0
		if st.Empties() <= e.opts.SolveAt {
			s.exact, s.maxDepth = e.opts.SolveAt, 64
		}
	}
	// One engine per mode (doc.go): the std engine plays std, anti with
	// an anti model, and reversi while the placement limit cannot change
	// its search; the generic searcher plays the rest, on one thread.
	switch {
	case st.Mode == Std:
	case st.Mode == Anti && !e.std.GenericAnti:
		s.anti = true
	case st.Mode == Reversi:
		d := reversiStdDepth(st, s.exact)
		if d == 0 {
			return s, false
		}
		s.maxDepth, s.solve = min(s.maxDepth, d), false
	default:
		return s, false
	}
	s.threads = max(e.opts.Threads, 1)
	return s, true
}

// Position is what Choose searches: the state, the moves the server
// allows (trusted as sent), and the clock. othello/wire builds it from a
// FlipSight request.
type Position struct {
	State       *State
	Legal       []int
	RemainingMs int64
	BudgetMs    int64
	MatchID     int64 // with Leg and the colour: whose clock this is
	Leg         int
}

// Fallback is the move to answer when the search fails: the first move
// the server allows, or a pass when it allows none.
func Fallback(p *Position) int {
	if len(p.Legal) == 0 {
		return Pass
	}
	return p.Legal[0]
}
