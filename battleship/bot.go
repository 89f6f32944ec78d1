package battleship

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// Options configure a Bot.
type Options struct {
	// Name is returned in init answers (the arena ignores it).
	Name string
	// MaxOpponents bounds the opponents remembered (per name and board
	// size; the least recently used are forgotten). Default 1024.
	MaxOpponents int
	// MaxMemoryBytes bounds the memory the opponent tables take in all
	// (12 bytes per board cell per opponent). Default 16 MiB.
	MaxMemoryBytes int
	// Touch is the per-ship probability of preferring a position touching
	// another ship. Default DefaultTouch; negative disables.
	Touch float64
	// Edge is the per-ship probability of preferring the board's border.
	// Default 0 (off): a fixed preference is what adaptive shooters learn
	// first, and the choice among candidate fleets finds hard fleets
	// without it.
	Edge float64
	// Candidates is the number of fleets drawn at init, each played once
	// by a model of the opponent's shooter, the hardest kept (boards up to
	// 256 cells). Default 8; 1 keeps the first.
	Candidates int
	// Target bounds the work of each shot decision. Its Spread defaults
	// to DefaultSpread (negative: exact ties only); its Prior is the
	// bot's own (learnt per opponent).
	Target TargetOptions
	// MemoryFile, if set, is where the opponent memory survives restarts:
	// read by NewBot, written in the background after games (at most
	// every 30 s) through a temporary file and a rename.
	MemoryFile string
}

// Placement defaults (see Options).
const (
	DefaultTouch  = 0.75
	DefaultSpread = 0.05
)

// Bot plays botsArena battleship. It is safe for concurrent use: games are
// stateless (every turn carries the whole history); the only shared state
// is the bounded per-opponent statistics.
type Bot struct {
	opt  Options
	mem  *memory
	pred predictions

	saveMu  sync.Mutex
	saving  bool
	saves   sync.WaitGroup // the background save in flight, if any
	savedAt time.Time
	saveErr error // the last load or save of MemoryFile
}

// NewBot returns a Bot with defaults filled in.
func NewBot(opt Options) *Bot {
	if opt.Name == "" {
		opt.Name = "gamebot"
	}
	if opt.MaxOpponents <= 0 {
		opt.MaxOpponents = 1024
	}
	if opt.MaxMemoryBytes <= 0 {
		opt.MaxMemoryBytes = 16 << 20
	}
	if opt.Candidates <= 0 {
		opt.Candidates = chooseCandidates
	}
	if opt.Target.Spread == 0 {
		opt.Target.Spread = DefaultSpread
	}
	if opt.Touch == 0 {
		opt.Touch = DefaultTouch
	}
	if opt.Touch < 0 {
		opt.Touch = 0
	}
	if opt.Edge < 0 {
		opt.Edge = 0
	}
	b := &Bot{opt: opt, mem: newMemory(opt.MaxOpponents, opt.MaxMemoryBytes/bytesPerCell)}
	if opt.MemoryFile != "" {
		b.saveErr = b.LoadMemory(opt.MemoryFile)
		b.savedAt = time.Now()
	}
	return b
}

// bytesPerCell is what one board cell of one opponent costs in memory.
const bytesPerCell = 12

// MemoryErr reports the last error reading or writing Options.MemoryFile
// (nil if none).
func (b *Bot) MemoryErr() error {
	b.saveMu.Lock()
	defer b.saveMu.Unlock()
	return b.saveErr
}

// Name is the name init answers carry.
func (b *Bot) Name() string { return b.opt.Name }

// GameSeed is the seed of one seat of one game: the arena's game-id and
// the player-index. Every random choice of Init and PlayTurn is drawn from
// it and the game's history, so the same request gets the same answer
// (the opponent memory aside), while different games, which have
// different ids, get different fleets and openings that a learning
// opponent cannot read.
func GameSeed(gameID string, playerIndex int) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(gameID) {
		h = (h ^ uint64(gameID[i])) * 1099511628211
	}
	return (h ^ uint64(playerIndex+1)) * 1099511628211
}

// Init places the fleet for a game against opponent (the name the arena
// sends), as the arena writes ships; seed is the game's (GameSeed). A
// fleet that cannot be placed is problem.Impossible, answered at once,
// never searched for long.
func (b *Bot) Init(opponent string, r Rules, seed uint64) ([]string, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	key := statsKey(opponent, r)
	b.mem.startGame(key, r)
	b.autosave()
	ships, err := b.chooseFleet(key, r, rand.New(rand.NewPCG(seed, 0x1a17)))
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
// every board. seed is the game's (GameSeed).
func (b *Bot) PlayTurn(opponent string, r Rules, yours, his []Strike, seed uint64) (x, y int) {
	if r.Check() != nil {
		return 0, 0
	}
	key := statsKey(opponent, r)
	b.mem.observeHis(key, r, his)
	// The previous turn's prediction meets its result.
	h := historyHash(key, seed, yours[:max(0, len(yours)-1)])
	if n := len(yours); n > 0 {
		if p, ok := b.pred.take(h); ok {
			s := yours[n-1]
			if s.OK && s.X >= 0 && s.Y >= 0 && s.X < r.W && s.Y < r.H && s.Y*r.W+s.X == int(p.cell) {
				b.mem.observeOurs(key, r, int(p.cell), s.Result != Miss, float64(p.p0))
			}
		}
		h = extendHash(h, yours[n-1])
	}
	opt := b.opt.Target
	if opt.Spread < 0 {
		opt.Spread = 0
	}
	buf := priorBufs.Get().(*[]float64)
	opt.Prior = b.mem.prior(key, r, *buf)
	c, p0 := nextShot(r, yours, rand.New(rand.NewPCG(seed, h)), opt)
	if opt.Prior != nil {
		*buf = opt.Prior
	}
	priorBufs.Put(buf)
	if p0 >= 0 {
		b.pred.put(h, prediction{cell: int32(c), p0: float32(p0)})
	}
	return c % r.W, c / r.W
}

// priorBufs holds the per-turn prior tables (a board's worth of floats,
// rebuilt every turn from the memory).
var priorBufs = sync.Pool{New: func() any { return new([]float64) }}

// placementHeat is the opponent's opening shots, scaled to max 1, once a
// few games have been seen.
func (b *Bot) placementHeat(key string, r Rules) []float64 {
	heat, games := b.mem.heatMap(key, r)
	if games < 2 {
		return nil
	}
	top := 0.0
	for _, v := range heat {
		top = max(top, v)
	}
	if top == 0 {
		return nil
	}
	for c := range heat {
		heat[c] /= top
	}
	return heat
}

func statsKey(opponent string, r Rules) string {
	if len(opponent) > 128 {
		opponent = opponent[:128]
	}
	return strconv.Itoa(r.W) + "x" + strconv.Itoa(r.H) + "|" + opponent
}

// Len reports how many opponents are remembered (for tests and metrics).
func (b *Bot) Len() int { return b.mem.len() }

// MemoryBytes reports the size of the opponent tables held.
func (b *Bot) MemoryBytes() int {
	b.mem.mu.Lock()
	defer b.mem.mu.Unlock()
	return b.mem.cells * bytesPerCell
}
