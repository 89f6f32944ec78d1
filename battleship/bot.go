package battleship

import (
	"math/rand/v2"
	"strconv"
	"sync"
)

// Options configure a Bot.
type Options struct {
	// Name is returned in init answers (the arena ignores it).
	Name string
	// MaxOpponents bounds the per-opponent statistics kept in memory
	// (least recently used entries are dropped). Default 256.
	MaxOpponents int
	// Touch is the per-ship probability of preferring a position touching
	// another ship. Default DefaultTouch; negative disables.
	Touch float64
	// Edge is the per-ship probability of preferring the board's border,
	// which costs shooters that assume uniformly placed ships several
	// shots. Default DefaultEdge; negative disables. Learned opponent
	// habits outweigh it.
	Edge float64
	// Target bounds the work of each shot decision.
	Target TargetOptions
}

// Placement defaults (see Options).
const (
	DefaultTouch = 0.3
	DefaultEdge  = 0.5
)

// Bot plays botsArena battleship. It is safe for concurrent use: games are
// stateless (every turn carries the whole history); the only shared state
// is the bounded per-opponent statistics.
type Bot struct {
	opt   Options
	stats *opponentStats
}

// NewBot returns a Bot with defaults filled in.
func NewBot(opt Options) *Bot {
	if opt.Name == "" {
		opt.Name = "gamebot"
	}
	if opt.MaxOpponents <= 0 {
		opt.MaxOpponents = 256
	}
	if opt.Touch == 0 {
		opt.Touch = DefaultTouch
	}
	if opt.Touch < 0 {
		opt.Touch = 0
	}
	if opt.Edge == 0 {
		opt.Edge = DefaultEdge
	}
	if opt.Edge < 0 {
		opt.Edge = 0
	}
	return &Bot{opt: opt, stats: newOpponentStats(opt.MaxOpponents)}
}

// Name is the name init answers carry.
func (b *Bot) Name() string { return b.opt.Name }

func newRand() *rand.Rand { return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())) }

// Init places the fleet for a game against opponent (the name the arena
// sends), as the arena writes ships. A fleet that cannot be placed is
// problem.Impossible, answered at once, never searched for long.
func (b *Bot) Init(opponent string, r Rules) ([]string, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	heat := b.stats.heat(statsKey(opponent, r))
	ships, err := Place(r, newRand(), PlaceOptions{Heat: heat, Touch: b.opt.Touch, Edge: b.opt.Edge})
	if err != nil {
		return nil, err
	}
	boats := make([]string, len(ships))
	for i, s := range ships {
		boats[i] = s.String()
	}
	return boats, nil
}

// PlayTurn chooses a shot from this bot's history (yours) and learns from
// the opponent's (his). The shot is always an in-bounds cell not shot
// before while one remains; rules that Check refuses get "0,0", a cell of
// every board.
func (b *Bot) PlayTurn(opponent string, r Rules, yours, his []Strike) (x, y int) {
	if r.Check() != nil {
		return 0, 0
	}
	b.learn(opponent, r, his)
	return NextShot(r, yours, newRand(), b.opt.Target)
}

// learnDepth is how many of the opponent's first shots are recorded: the
// early shots are the ones placement should dodge.
func learnDepth(r Rules) int { return max(1, min(20, r.Cells()/5)) }

// learn records the opponent's early shots once per game: a stateless bot
// sees the history at exactly this length once per game and seat.
func (b *Bot) learn(opponent string, r Rules, his []Strike) {
	if len(his) != learnDepth(r) {
		return
	}
	b.stats.record(statsKey(opponent, r), r, his)
}

func statsKey(opponent string, r Rules) string {
	if len(opponent) > 128 {
		opponent = opponent[:128]
	}
	return strconv.Itoa(r.W) + "x" + strconv.Itoa(r.H) + "|" + opponent
}

// opponentStats maps an opponent and board size to how often each cell was
// among its early shots. Bounded: at most max entries, LRU eviction.
type opponentStats struct {
	mu      sync.Mutex
	max     int
	clock   uint64
	entries map[string]*heatEntry
}

type heatEntry struct {
	counts []uint32
	games  int
	used   uint64
}

func newOpponentStats(n int) *opponentStats {
	return &opponentStats{max: n, entries: make(map[string]*heatEntry)}
}

func (s *opponentStats) record(key string, r Rules, shots []Strike) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	e := s.entries[key]
	if e == nil {
		if len(s.entries) >= s.max {
			s.evict()
		}
		e = &heatEntry{counts: make([]uint32, r.Cells())}
		s.entries[key] = e
	}
	e.used = s.clock
	e.games++
	for _, st := range shots {
		if st.OK && st.X < r.W && st.Y < r.H {
			e.counts[st.Y*r.W+st.X]++
		}
	}
}

func (s *opponentStats) evict() {
	var oldest string
	var at uint64
	first := true
	for k, e := range s.entries {
		if first || e.used < at {
			oldest, at, first = k, e.used, false
		}
	}
	delete(s.entries, oldest)
}

// heat returns the normalized early-shot frequency per cell (max 1), or
// nil when too few games have been seen to mean anything.
func (s *opponentStats) heat(key string) []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[key]
	if e == nil || e.games < 3 {
		return nil
	}
	s.clock++
	e.used = s.clock
	top := uint32(0)
	for _, c := range e.counts {
		top = max(top, c)
	}
	if top == 0 {
		return nil
	}
	out := make([]float64, len(e.counts))
	for i, c := range e.counts {
		out[i] = float64(c) / float64(top)
	}
	return out
}

// Len reports how many opponent entries are held (for tests and metrics).
func (b *Bot) Len() int {
	b.stats.mu.Lock()
	defer b.stats.mu.Unlock()
	return len(b.stats.entries)
}
