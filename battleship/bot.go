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

// InitAnswer is the answer to "init".
type InitAnswer struct {
	Name  string   `json:"name"`
	Boats []string `json:"boats"`
}

// TurnAnswer is the answer to "play-turn".
type TurnAnswer struct {
	Play string `json:"play"`
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())) }

// Init places the fleet. An unreadable board is Malformed; a fleet that
// cannot be placed is Impossible (answered at once, never searched for
// long).
func (b *Bot) Init(req *Request) (InitAnswer, error) {
	if req.BoardErr != nil {
		return InitAnswer{}, req.BoardErr
	}
	r := req.Rules
	if err := r.Check(); err != nil {
		return InitAnswer{}, err
	}
	heat := b.stats.heat(statsKey(req.Opponent, r))
	ships, err := Place(r, newRand(), PlaceOptions{Heat: heat, Touch: b.opt.Touch, Edge: b.opt.Edge})
	if err != nil {
		return InitAnswer{}, err
	}
	boats := make([]string, len(ships))
	for i, s := range ships {
		boats[i] = s.String()
	}
	return InitAnswer{Name: b.opt.Name, Boats: boats}, nil
}

// PlayTurn chooses a shot. It always returns a legal in-bounds target; when
// the board cannot be read it also returns the error and the safe target
// "0,0" (every board has that cell).
func (b *Bot) PlayTurn(req *Request) (TurnAnswer, error) {
	if req.BoardErr != nil {
		return TurnAnswer{Play: "0,0"}, req.BoardErr
	}
	r := req.Rules
	if err := r.Check(); err != nil {
		return TurnAnswer{Play: "0,0"}, err
	}
	b.learn(req)
	x, y := NextShot(r, req.Yours, newRand(), b.opt.Target)
	return TurnAnswer{Play: FormatTarget(x, y)}, nil
}

// learnDepth is how many of the opponent's first shots are recorded: the
// early shots are the ones placement should dodge.
func learnDepth(r Rules) int { return max(1, min(20, r.Cells()/5)) }

// learn records the opponent's early shots once per game: a stateless bot
// sees the history at exactly this length once per game and seat.
func (b *Bot) learn(req *Request) {
	k := learnDepth(req.Rules)
	if len(req.HisTargets) != k {
		return
	}
	b.stats.record(statsKey(req.Opponent, req.Rules), req.Rules, req.HisTargets)
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
