package referee

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/remote"
)

// Setup is what the commands that play a run of games share.
type Setup struct {
	Rules battleship.Rules
	Games int
	// Concurrency is the number of games played at once (at least 1).
	Concurrency int
	// Seed fixes the hidden fleets and every player's randomness.
	Seed uint64
	// MaxShots is the shots after which a game counts as lost (0: 2 x
	// cells + 10; duels allow four times as many).
	MaxShots int
	// Progress (nil: none) is told of every finished game.
	Progress func(done, total int)
}

// feasible refuses a board and fleet no game can be played on.
func (s Setup) feasible() error {
	if err := s.Rules.Feasible(); err != nil {
		return fmt.Errorf("board: %w", err)
	}
	return nil
}

// HTTP is how the modes that play bot servers reach them.
type HTTP struct {
	// Self starts the bot "self" (nil: a run naming it fails).
	Self SelfServer
	// Timeout bounds one HTTP exchange, connection included; a bot that
	// exceeds it loses the game, as on the arena (0: remote.ArenaTimeout).
	// A test on a loaded machine gives it more.
	Timeout time.Duration
}

// SelfServer starts this module's engine behind the production server
// and returns its URL and how to stop it: the bot "self" of the HTTP
// modes, so that a run exercises the real edge.
type SelfServer func() (url string, stop func(), err error)

// callStats collects per-request latencies and invalid answers.
type callStats struct {
	latencies []time.Duration
	invalid   []string
}

// forGames runs play(g) for g in 0..s.Games-1 on s.Concurrency workers.
// It stops at the first error, or when ctx is done: games cut short then
// are not failures, and the caller reports those that finished.
func forGames(ctx context.Context, s Setup, play func(g int, st [2]*callStats) error) ([2]*callStats, error) {
	var mu sync.Mutex
	total := [2]*callStats{{}, {}}
	next, done := 0, 0
	var firstErr error
	var wg sync.WaitGroup
	for range s.Concurrency {
		wg.Go(func() {
			for {
				mu.Lock()
				if next >= s.Games || firstErr != nil || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				g := next
				next++
				mu.Unlock()
				st := [2]*callStats{{}, {}}
				err := play(g, st)
				mu.Lock()
				for i := range 2 {
					total[i].latencies = append(total[i].latencies, st[i].latencies...)
					total[i].invalid = append(total[i].invalid, st[i].invalid...)
				}
				if err != nil && firstErr == nil && ctx.Err() == nil {
					firstErr = err
				}
				done++
				if s.Progress != nil {
					s.Progress(done, s.Games)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return total, firstErr
}

// hiddenFleet is game g's hidden fleet: the same for every mode and
// shooter given the seed and how fleets are hidden ("uniform" or
// "engine").
func hiddenFleet(seed uint64, hiddenBy string, r battleship.Rules, g int) ([]battleship.Ship, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(g)))
	hidden := battleship.RandomFleet(r, rng)
	if hidden == nil {
		return nil, fmt.Errorf("no fleet fits %s", boardName(r))
	}
	if hiddenBy == "engine" {
		// The bot's own choice for an opponent it knows nothing of, drawn
		// after the uniform fleet: a seed's games are the same games
		// whichever way fleets are hidden.
		self, err := agents.New("self")
		if err != nil {
			return nil, err
		}
		return self.NewGame("hidden", r, rng).Place()
	}
	return hidden, nil
}

// shotCap is the shots after which a game of r counts as lost.
func shotCap(maxShots int, r battleship.Rules) int {
	if maxShots > 0 {
		return maxShots
	}
	return 2*r.Cells() + 10
}

// timed keeps each answer's time in st, by seat: the hooks of a game
// whose every call counts (the HTTP modes).
func timed(g *battleship.Game, st [2]*callStats) {
	placed, fired := g.Placed, g.Fired
	g.Placed = func(seat int, ships []battleship.Ship, d time.Duration) {
		st[seat].latencies = append(st[seat].latencies, d)
		if placed != nil {
			placed(seat, ships, d)
		}
	}
	g.Fired = func(seat int, s battleship.Shot, d time.Duration) {
		st[seat].latencies = append(st[seat].latencies, d)
		if fired != nil {
			fired(seat, s, d)
		}
	}
}

// faultTime keeps the time of the bad answer that ended a game, when
// there was an answer (not the shot cap).
func faultTime(o battleship.Outcome, st [2]*callStats) {
	if f := o.Fault; f != nil && f.Phase != "" {
		st[f.Seat].latencies = append(st[f.Seat].latencies, f.D)
	}
}

// gameResult is how a game ended, as the reports count it: the winner's
// seat, the loser's reason if by invalid answer, the shots fired by the
// winner, and with PlayOn the shots each side needed (bot, opponent).
type gameResult struct {
	winner  int
	invalid string
	shots   int
	both    [2]int
}

func resultOf(o battleship.Outcome, botSeat int) gameResult {
	res := gameResult{winner: o.Winner}
	if o.Fault != nil {
		res.invalid = o.Fault.Invalid()
		return res
	}
	res.shots = o.Shots[o.Winner]
	res.both = [2]int{o.Shots[botSeat], o.Shots[1-botSeat]}
	return res
}

// openBot checks s's board, then opens the bot under test.
func (h HTTP) openBot(s Setup, text string) (*contestant, error) {
	if err := s.feasible(); err != nil {
		return nil, err
	}
	return h.open(text, s.Seed)
}

// timeout is h's limit on one exchange.
func (h HTTP) timeout() time.Duration {
	if h.Timeout <= 0 {
		return remote.ArenaTimeout
	}
	return h.Timeout
}
