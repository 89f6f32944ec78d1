package othello

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello/bitboard"
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

// clockKey identifies one side's clock in one leg.
type clockKey struct {
	match int64
	leg   int
	color int
}

// clockObs remembers the previous request of a clock, to measure the time
// lost outside the search between two of our moves (connector, network,
// scheduling): remaining then, minus our search, minus remaining now.
type clockObs struct {
	remaining int64     // remaining_ms of the previous request
	used      int64     // ms our search took then
	at        time.Time // when it was answered
	overhead  float64   // moving average of the lost ms per move
	seen      int       // losses measured so far
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

// pool keeps up to n searchers, and their tables, between moves: a move
// takes a free one, or a new one when all are busy, and gives it back.
type pool[S any] struct{ free chan S }

func newPool[S any](n int) pool[S] { return pool[S]{free: make(chan S, n)} }

// get returns a free searcher, or false when there is none.
func (p pool[S]) get() (S, bool) {
	select {
	case s := <-p.free:
		return s, true
	default:
		var none S
		return none, false
	}
}

// put gives s back; it is dropped when the pool is full.
func (p pool[S]) put(s S) {
	select {
	case p.free <- s:
	default:
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
	overhead := e.observe(key, p.RemainingMs)
	soft, hard, failLow := e.timePlan(p, overhead)
	deadline := start.Add(hard)
	defer func() { e.record(key, p.RemainingMs, time.Since(start)) }()
	maxDepth := 64
	if e.opts.MaxDepth > 0 {
		maxDepth = e.opts.MaxDepth
		if e.opts.FixedTime <= 0 {
			soft, deadline = 0, time.Time{}
		}
	}
	var failLowDeadline time.Time
	if !deadline.IsZero() && failLow > hard {
		failLowDeadline = start.Add(failLow)
	}
	st := p.State
	exact := exactEmptiesFor(hard, st.Mode.Size())
	if e.opts.SolveAt > 0 {
		exact = 0
		if st.Empties() <= e.opts.SolveAt {
			exact, maxDepth = e.opts.SolveAt, 64
		}
	}
	// One engine per mode (doc.go): the std engine plays std, anti with
	// an anti model, and reversi while the placement limit cannot change
	// its search; the generic searcher plays the rest, on one thread.
	reversiDepth := 0
	if st.Mode == Reversi {
		reversiDepth = reversiStdDepth(st, exact)
	}
	std := st.Mode == Std || st.Mode == Anti && !e.std.GenericAnti || reversiDepth > 0
	threads := 1
	if std {
		threads = max(e.opts.Threads, 1)
	}
	var helpers context.Context
	if e.opts.Cores != nil {
		var release func()
		threads, helpers, release = e.opts.Cores.take(threads)
		defer release()
	}
	var d Decision
	switch {
	case st.Mode == Std:
		d = e.chooseStd(ctx, p, false, soft, deadline, failLowDeadline, maxDepth, threads, helpers, true)
	case st.Mode == Reversi && std:
		d = e.chooseStd(ctx, p, false, soft, deadline, failLowDeadline, min(maxDepth, reversiDepth), threads, helpers, false)
	case std:
		d = e.chooseStd(ctx, p, true, soft, deadline, failLowDeadline, maxDepth, threads, helpers, true)
	default:
		d = e.chooseVariant(ctx, p, soft, deadline, maxDepth, exact)
	}
	d.Elapsed, d.Threads = time.Since(start), threads
	return d
}

// The midgame depth the root reaches before it solves: a solve that does
// not finish in time plays that iteration's move, so probable solves,
// which often do not, come after a deep one.
const (
	stdSolveAfterExact     = 10
	stdSolveAfterSelective = 16
)

// reversiMinStdDepth: below this depth the std engine would see less of
// a reversi position than the generic searcher, which knows the limit.
const reversiMinStdDepth = 6

// reversiStdDepth is how deep the std engine may search a reversi
// position, 0 when it may not. After the centre phase reversi is std
// Othello until a side has placed MaxPlaced discs and must pass: a search
// in which neither side can place more discs than it has left is a std
// search (a pass takes no depth in it, and the leaves are evaluated as in
// std). The sides' discs left add up to the empties when the counts are
// right, so the depth is at most half the empties, never a solve; the
// endings, where the limit decides, stay with the generic searcher, which
// solves them under the rules from exact empties.
func reversiStdDepth(st *State, exact int) int {
	pl, op := st.Bitboards()
	empties := st.Empties()
	if bitboard.Centre&^(pl|op) != 0 || empties <= exact {
		return 0
	}
	d := min(MaxPlaced-st.Placed[0], MaxPlaced-st.Placed[1], empties/2)
	if d < reversiMinStdDepth {
		return 0
	}
	return d
}

// stdLimits are the std engine's limits for st when a move may take up to
// hard (timed: whether there is a clock at all): the selectivity, and from
// how many empties the root solves, probably and then exactly.
func (e *Engine) stdLimits(st *State, hard time.Duration, timed bool) stdengine.Limits {
	exact := exactEmptiesFor(hard, 8)
	lim := stdengine.Limits{MidgameSel: e.std.MidgameSel,
		ExactEmpties: exact, ProbableEmpties: exact + e.std.ProbableSolves, SolveAfter: stdSolveAfterExact}
	if st.Empties() > exact {
		lim.SolveAfter = stdSolveAfterSelective
	}
	if !timed {
		lim.ExactEmpties, lim.ProbableEmpties = 0, 0
	}
	return lim
}

// Ponder thinks on the opponent's time: it searches p, the position our
// move left (RemainingMs our clock after it), on one thread, until ctx
// ends or the search does, with the searcher and table the next Choose of
// this engine takes. Whatever the reply, that search then finds the
// reply's subtree in the table, searched as deep as the ponder went less
// one. The caller stops the ponder (ctx) and waits for Ponder to return
// before the next Choose, or that Choose would take another searcher.
// Only the std engine's modes ponder (std, and anti with its model); in
// the others Ponder returns at once. With Cores it searches only on a
// core no search is using, gives it back as soon as a search wants it,
// and goes on when a core is free again, until ctx ends.
func (e *Engine) Ponder(ctx context.Context, p *Position) {
	st := p.State
	if len(p.Legal) == 0 || st.Mode.Size() != 8 || !(st.Mode == Std || st.Mode == Anti && !e.std.GenericAnti) {
		return
	}
	timed := e.opts.MaxDepth <= 0 || e.opts.FixedTime > 0
	_, hard, _ := e.timePlan(p, overheadMs)
	lim := e.stdLimits(st, hard, timed)
	lim.MaxDepth, lim.Threads = e.opts.MaxDepth, 1
	pl, op := st.Bitboards()
	if e.opts.Cores == nil {
		s, done := e.stdSearcher(st.Mode == Anti)
		defer done()
		s.Search(ctx, pl, op, st.Turn == White, p.Legal, lim)
		return
	}
	// On shared cores the ponder waits for a free one, and when a search
	// calls its core back it waits for the next: the search it starts
	// again finds what it had done in the table. The searcher is borrowed
	// only once a core is, so that a ponder that never gets one holds
	// nothing another search of this engine could use.
	var s *stdengine.Searcher
	for {
		lent, release, ok := e.opts.Cores.lend(ctx)
		if !ok {
			return
		}
		if s == nil {
			var done func()
			s, done = e.stdSearcher(st.Mode == Anti)
			defer done()
		}
		sctx, cancel := context.WithCancel(ctx)
		stopLent := context.AfterFunc(lent, cancel)
		s.Search(sctx, pl, op, st.Turn == White, p.Legal, lim)
		stopLent()
		called := lent.Err() != nil
		cancel()
		release()
		if !called || ctx.Err() != nil {
			return
		}
	}
}

// PonderAfter starts pondering, in the background, the position our move
// leaves from pos, with our clock then at pos's less used, and returns the
// function that stops the ponder and waits for it: call it before this
// engine's next Choose. When the opponent must pass, the position pondered
// is our next one; when the move ends the game nothing starts.
func (e *Engine) PonderAfter(pos *Position, move int, used time.Duration) (stop func()) {
	next := pos.State.Clone()
	if move == Pass || next.Play(move) != nil || next.Over() {
		return func() {}
	}
	legal := next.LegalMoves()
	if len(legal) == 0 {
		_ = next.Play(Pass)
		legal = next.LegalMoves()
	}
	p := &Position{State: next, Legal: legal, MatchID: pos.MatchID, Leg: pos.Leg,
		RemainingMs: pos.RemainingMs - used.Milliseconds()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.Ponder(ctx, p)
	}()
	return func() { cancel(); <-done }
}

// stdSearcher borrows a std-engine searcher with the std model (anti: the
// anti model) and its table from the engine's pool, or makes one; done
// gives it back.
func (e *Engine) stdSearcher(anti bool) (s *stdengine.Searcher, done func()) {
	model, pool := e.std.Model, e.stdPool
	if model == nil {
		model = stdengine.Embedded()
	}
	if anti {
		model, pool = e.std.AntiModel, e.antiPool
		if model == nil {
			model = stdengine.EmbeddedAnti()
		}
	}
	s, ok := pool.get()
	if !ok {
		s = stdengine.NewSearcher(model, e.opts.TTBits+1)
		s.SetWithout(e.std.Without)
	}
	return s, func() { pool.put(s) }
}

// chooseStd searches with the std engine, on threads searchers (helpers,
// when set, calls the helpers back): a std position, an anti one (anti:
// with the anti model), or a reversi one, which is never solved (solve
// false).
func (e *Engine) chooseStd(ctx context.Context, p *Position, anti bool, soft time.Duration, deadline, failLow time.Time, maxDepth, threads int, helpers context.Context, solve bool) Decision {
	s, done := e.stdSearcher(anti)
	defer done()
	st := p.State
	pl, op := st.Bitboards()
	lim := e.stdLimits(st, time.Until(deadline), !deadline.IsZero())
	lim.MaxDepth, lim.Soft, lim.Deadline, lim.FailLowDeadline = maxDepth, soft*6/10, deadline, failLow
	lim.Threads, lim.Helpers = threads, helpers
	if e.opts.SolveAt > 0 {
		lim.ProbableEmpties, lim.ExactEmpties = 0, 0
		if st.Empties() <= e.opts.SolveAt && solve {
			lim.MaxDepth = 64
		}
	}
	if !solve {
		lim.ProbableEmpties, lim.ExactEmpties = 0, 0
	}
	res := s.Search(ctx, pl, op, st.Turn == White, p.Legal, lim)
	return Decision{Move: res.Move, Score: float64(res.Score), Depth: res.Depth, Exact: res.Exact, Nodes: res.Nodes}
}

// variantRules states a mode's rules for the generic searcher.
func variantRules(m Mode) variants.Rules {
	return variants.Rules{Misere: m == Anti, Reversi: m == Reversi, MaxPlaced: MaxPlaced, Blocked: m.Blocked()}
}

// chooseVariant searches a position of grand, octagon, reversi (its
// centre phase and endings) or anti (GenericAnti) with the generic
// searcher of its board size.
func (e *Engine) chooseVariant(ctx context.Context, p *Position, soft time.Duration, deadline time.Time, maxDepth, exact int) Decision {
	st := p.State
	r := variantRules(st.Mode)
	lim := variants.Limits{MaxDepth: maxDepth, Soft: soft, Deadline: deadline, ExactEmpties: exact}
	var res variants.Result
	if st.Mode.Size() == 8 {
		s, ok := e.pool8.get()
		if ok {
			s.SetRules(r)
		} else {
			s = variants.NewSearcher8(r, e.opts.TTBits)
		}
		pl, op := st.Bitboards()
		res = s.Search(ctx, pl, op, st.Placed[st.Turn-1], st.Placed[2-st.Turn], p.Legal, lim)
		e.pool8.put(s)
	} else {
		s, ok := e.pool10.get()
		if ok {
			s.SetRules(r)
		} else {
			s = variants.NewSearcher10(r, e.opts.TTBits)
		}
		pl, op := st.masks10()
		res = s.Search(ctx, pl, op, p.Legal, lim)
		e.pool10.put(s)
	}
	move := res.Move
	if !slices.Contains(p.Legal, move) { // cannot happen: the roots are p.Legal
		move = p.Legal[0]
	}
	return Decision{Move: move, Score: res.Score, Depth: res.Depth, Exact: res.Exact, Nodes: res.Nodes}
}

// exactEmptiesFor is how many empties the root may try to solve exactly
// given the hard limit.
func exactEmptiesFor(hard time.Duration, size int) int {
	steps, n := exactSteps8, 12
	if size == 10 {
		steps, n = exactSteps10, 10
	}
	for _, st := range steps {
		if hard >= st.hard {
			return st.empties
		}
	}
	return n
}

// solveZone is the most empties exactEmptiesFor ever allows on a board.
func solveZone(size int) int {
	if size == 10 {
		return exactSteps10[0].empties
	}
	return exactSteps8[0].empties
}

// exactStep: from this hard limit on, solve from this many empties.
type exactStep struct {
	hard    time.Duration
	empties int
}

// exactSteps8: 20 empties take 0.2–0.8 s on one core from a cold table
// (FFO #40: 0.5 s, 12 M nodes; EndgameSet20: 0.33 s on average), each
// empty more about 2–3× (EndgameSet24: 18 s on average at 24 empties),
// but much less inside a game, where the table is warm: the first solves
// of 175 legs against NTest at 60 s clocks (with the older, smaller steps)
// took 0.8 s at 22 empties (median; 90% under 1.7 s), 1.1 s at 23 (3.1 s)
// and 1.2 s at 24 (2.6 s, 14 legs); with these steps, 24-empty solves
// took 3.3 s (median of 8 legs; at most 5.6 s) and none ran out of time.
// A solve that does not finish plays the depth-10 move.
var exactSteps8 = []exactStep{
	{7 * time.Second, 25}, {4500 * time.Millisecond, 24}, {3 * time.Second, 23},
	{2 * time.Second, 22}, {time.Second, 21}, {400 * time.Millisecond, 20}, {150 * time.Millisecond, 19},
	{50 * time.Millisecond, 17}, {20 * time.Millisecond, 15},
}

// exactSteps10: the 10×10 solver is slower per empty; these are the
// 8×8 steps measured before the 8×8 solver got faster, less two empties.
var exactSteps10 = []exactStep{
	{5 * time.Second, 19}, {2 * time.Second, 18}, {700 * time.Millisecond, 17},
	{250 * time.Millisecond, 16}, {80 * time.Millisecond, 14}, {20 * time.Millisecond, 12},
}

// Time management constants.
const (
	reserveMs  = 2000 // the connector's 750 ms margin plus 1.25 s of safety
	overheadMs = 60   // per own move left: time lost outside the search (I/O, network)
	minThinkMs = 5
)

// observe returns the per-move overhead (ms) to plan with for a clock:
// at least overheadMs, more when the clock has been losing time outside
// our searches. The first loss measured replaces the default outright: a
// connector that polls once a second loses about half a second per move,
// and easing into that over several moves spends the difference early.
func (e *Engine) observe(k clockKey, remaining int64) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	o := e.clocks[k]
	if o == nil || remaining > o.remaining || time.Since(o.at) > 10*time.Minute {
		return overheadMs
	}
	lost := max(float64(o.remaining-o.used-remaining), 0)
	if o.seen == 0 {
		o.overhead = lost
	} else {
		o.overhead = 0.6*o.overhead + 0.4*lost
	}
	o.seen++
	o.remaining = remaining // a second request at the same clock counts once
	o.used = 0
	return max(overheadMs, int64(o.overhead))
}

// record stores what a search used, for the next observe of the clock.
func (e *Engine) record(k clockKey, remaining int64, took time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.clocks == nil {
		e.clocks = map[clockKey]*clockObs{}
	}
	if len(e.clocks) > 1024 { // forget old clocks (finished games)
		for key, o := range e.clocks {
			if time.Since(o.at) > 10*time.Minute || len(e.clocks) > 4096 {
				delete(e.clocks, key)
			}
		}
	}
	o := e.clocks[k]
	if o == nil {
		o = &clockObs{overhead: overheadMs}
		e.clocks[k] = o
	}
	o.remaining, o.used, o.at = remaining, took.Milliseconds(), time.Now()
}

// timePlan turns the clock into a soft limit (no new iteration after 60% of
// it), a hard deadline, and the later deadline of an iteration that fails
// low (twice the hard one, within three quarters of the budget and half
// of what is usable; fixed-time play never extends). Both legs of a match
// run at once, and the connector kills the engine at budget_ms, so the
// limits stay well below both the budget and the remaining clock.
func (e *Engine) timePlan(p *Position, overhead int64) (soft, hard, failLow time.Duration) {
	rem, budget := p.RemainingMs, p.BudgetMs
	if budget <= 0 {
		budget = rem - 750
	}
	empties := 0
	for _, c := range p.State.Cells {
		if c == Empty {
			empties++
		}
	}
	empties -= len(p.State.Mode.Blocked())
	own := (empties + 1) / 2
	// Keep a reserve, and the time each remaining move costs outside the
	// search (process I/O, scheduling, the connector and the network).
	usable := rem - reserveMs - rem/20 - int64(own)*max(overhead, overheadMs)
	var softMs int64
	if e.opts.FixedTime > 0 {
		softMs = e.opts.FixedTime.Milliseconds()
	} else {
		// Spend more per move in the midgame: on 8×8 the game is solved
		// from about 24 empties on (then every move is a table lookup),
		// so plan for the own moves before that and a few for the solve.
		// Measured at 60 s clocks: planning for own−7 moves left 15 s of
		// the clock unused at the end of the game, own−10 8–13 s, own−11
		// (with the larger share for the first solve below) 6–8 s.
		plan := max(int64(own)-6, 3)
		if p.State.Mode.Size() == 8 {
			plan = max(int64(own)-11, 3)
		}
		softMs = usable / (plan + 1)
	}
	hardMs := softMs * 3
	if e.opts.FixedTime > 0 {
		hardMs = softMs
	}
	// A quarter of what is usable at most, but two thirds once an exact
	// solve is in reach: after it every move is a table lookup, and if it
	// does not finish, what is left still solves a few empties later. (At
	// 60 s clocks a quarter left ~10 s of the clock unused at the end of
	// each game, half 8.4 s.)
	limit := usable / 4
	if empties <= solveZone(p.State.Mode.Size()) {
		limit = usable * 2 / 3
	}
	hardMs = min(hardMs, limit, budget/2)
	softMs = min(softMs, hardMs)
	hardMs = max(hardMs, minThinkMs)
	softMs = max(softMs, minThinkMs)
	failLowMs := hardMs
	if e.opts.FixedTime <= 0 {
		failLowMs = max(hardMs, min(2*hardMs, budget*3/4, usable/2))
	}
	ms := time.Millisecond
	return time.Duration(softMs) * ms, time.Duration(hardMs) * ms, time.Duration(failLowMs) * ms
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

// Cores shares a machine's cores among the engines searching on it at the
// same time: the FlipSight connector gives one to the engines of all its
// legs. A search always takes a core for its main searcher (a move is due
// whatever the machine does) and as many more for helpers as are free,
// up to what it asks; a search that starts when none is free calls back
// the helpers of the oldest search that has some, which stop within a
// millisecond or so and leave their cores to it. So a leg
// searches on both cores of a two-core machine while our other leg waits
// for the opponent, and on one while both legs search. A search keeps
// the threads it started with, less those called back; cores freed in
// the middle of a search go to the next one, or to a waiting ponder. A
// ponder (Engine.Ponder) borrows only a free core, waiting for one if
// need be, and gives it back to the first search that wants it, before
// any helper of another search is called back.
type Cores struct {
	mu    sync.Mutex
	n     int
	used  int           // cores taken: each search's main searcher and its helpers
	loans []*loan       // the searches holding helper cores, oldest first
	freed chan struct{} // closed when cores are given back: ponders wait on it
	stats CoreStats
}

// loan is one search's helper cores, or a ponder's core.
type loan struct {
	cores  int
	cancel context.CancelFunc // calls the helpers back
	ponder bool
}

// CoreStats say what a Cores did.
type CoreStats struct {
	Searches       int // searches started
	Helped         int // … with helpers
	CalledBack     int // searches whose helpers were called back
	Peak           int // most cores taken at once
	Used           int // cores taken now
	Ponders        int // ponders that found a free core
	PondersStopped int // … stopped because a search wanted it
}

// lend gives a ponder a core no search is using, as a loan the next search
// that wants it calls back (the context is then done), waiting for one
// while every core is taken. It returns false when ctx ends first;
// release, once the ponder is done.
func (c *Cores) lend(ctx context.Context) (context.Context, func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.used >= c.n || ctx.Err() != nil {
		if ctx.Err() != nil {
			return nil, nil, false
		}
		if c.freed == nil {
			c.freed = make(chan struct{})
		}
		freed := c.freed
		c.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
		}
		c.mu.Lock()
	}
	lent, cancel := context.WithCancel(context.Background())
	l := &loan{cores: 1, cancel: cancel, ponder: true}
	c.loans = append(c.loans, l)
	c.used++
	c.stats.Ponders++
	c.stats.Peak = max(c.stats.Peak, c.used)
	return lent, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if i := slices.Index(c.loans, l); i >= 0 {
			c.loans = slices.Delete(c.loans, i, i+1)
			c.release(l.cores)
		}
		l.cancel()
	}, true
}

// release gives n cores back and wakes the ponders waiting for one; c.mu
// is held.
func (c *Cores) release(n int) {
	c.used -= n
	if c.freed != nil {
		close(c.freed)
		c.freed = nil
	}
}

// NewCores returns a Cores of n cores (at least 1).
func NewCores(n int) *Cores { return &Cores{n: max(n, 1)} }

// Stats returns what c did so far.
func (c *Cores) Stats() CoreStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Used = c.used
	return s
}

// take starts a search that asks for up to want threads. It returns how
// many it has (at least 1), the context that calls its helpers back (nil
// without helpers), and release, to call once the search is done.
func (c *Cores) take(want int) (int, context.Context, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Searches++
	// A ponder gives its core to any search that wants it, helpers
	// included: a move due now is worth more than a guess at the next.
	for i := 0; i < len(c.loans) && c.n-c.used < want; {
		if l := c.loans[i]; l.ponder {
			c.loans = slices.Delete(c.loans, i, i+1)
			c.used -= l.cores
			l.cancel()
			c.stats.PondersStopped++
			continue
		}
		i++
	}
	if c.used >= c.n && len(c.loans) > 0 {
		l := c.loans[0]
		c.loans = c.loans[1:]
		c.used -= l.cores
		l.cancel()
		c.stats.CalledBack++
	}
	c.used++
	threads := 1
	var l *loan
	var helpers context.Context
	if extra := min(want-1, c.n-c.used); extra > 0 {
		var cancel context.CancelFunc
		helpers, cancel = context.WithCancel(context.Background())
		l = &loan{cores: extra, cancel: cancel}
		c.loans = append(c.loans, l)
		c.used += extra
		threads += extra
		c.stats.Helped++
	}
	c.stats.Peak = max(c.stats.Peak, c.used)
	return threads, helpers, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.release(1)
		if l == nil {
			return
		}
		if i := slices.Index(c.loans, l); i >= 0 { // not called back
			c.loans = slices.Delete(c.loans, i, i+1)
			c.release(l.cores)
		}
		l.cancel()
	}
}
