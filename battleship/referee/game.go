package referee

import (
	"context"
	"fmt"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/wire"
)

// seat is one side of a game.
type seat struct {
	p       player
	label   string
	ships   []battleship.Ship
	arena   *battleship.Arena // the fleet this seat hides, shot at by the other seat
	strikes []wire.Strike     // this seat's shots
}

// callStats collects per-request latencies and invalid answers.
type callStats struct {
	latencies []time.Duration
	invalid   []string
}

func (s *callStats) timed(ctx context.Context, p player, body []byte) ([]byte, error) {
	t0 := time.Now()
	out, err := p.call(ctx, body)
	s.latencies = append(s.latencies, time.Since(t0))
	return out, err
}

// caller is p's call, timed in s.
func (s *callStats) caller(p player) CallFunc {
	return func(ctx context.Context, body []byte) ([]byte, error) { return s.timed(ctx, p, body) }
}

// httpLatency is the latency of s's last call when s is a bot server, for
// its record (0 for an in-process player: no server's time).
func httpLatency(s *seat, st *callStats) time.Duration {
	if _, ok := s.p.(*httpPlayer); !ok || len(st.latencies) == 0 {
		return 0
	}
	return st.latencies[len(st.latencies)-1]
}

// gameResult is how a game ended: the winner's index, the loser's reason if
// by invalid answer, and the shots fired by the winner.
type gameResult struct {
	winner  int
	invalid string // non-empty when the loser answered badly
	shots   int    // shots fired by the winner
	both    [2]int // -full: shots each side needed (bot, opponent)
}

// playGame plays one game between seats[0] and seats[1], gameID as the
// arena numbers it. A seat with ships hides that fleet instead of asking
// its player to place one; a seat without a player never shoots (the
// target mode's hidden fleet). A player that has not won after maxShots
// shots loses. rec (nil: none) records the fleets as placed and every
// shot.
func playGame(ctx context.Context, st [2]*callStats, seats [2]*seat, r battleship.Rules, gameID int, maxShots int, rec *record.DuelWriter) (gameResult, error) {
	// Init, player 1 then player 2; a bad answer loses at once.
	for i, s := range seats {
		if s.ships != nil {
			s.arena = battleship.NewArena(r, s.ships)
			continue
		}
		var err error
		s.ships, err = AskFleet(ctx, st[i].caller(s.p), gameID, i, r, seats[1-i].label)
		if ctx.Err() != nil {
			return gameResult{}, ctx.Err()
		}
		if err != nil {
			return gameResult{winner: 1 - i, invalid: "init: " + err.Error()}, nil
		}
		s.arena = battleship.NewArena(r, s.ships)
		rec.Fleet(i, s.ships, httpLatency(s, st[i]))
	}
	for turn := 0; ; turn++ {
		i := turn % 2
		me, him := seats[i], seats[1-i]
		if me.p == nil { // targeting mode: the other seat does not shoot
			continue
		}
		if len(me.strikes) >= maxShots {
			return gameResult{winner: 1 - i, invalid: fmt.Sprintf("no win after %d shots", maxShots)}, nil
		}
		target, err := AskShot(ctx, st[i].caller(me.p), gameID, i, r, him.label, me.strikes, him.strikes, him.arena)
		if ctx.Err() != nil {
			return gameResult{}, ctx.Err()
		}
		if err != nil {
			return gameResult{winner: 1 - i, invalid: "play-turn: " + err.Error()}, nil
		}
		res := him.arena.Shoot(target)
		me.strikes = append(me.strikes, wire.Strike{Target: target, Result: res})
		rec.Shot(i, target, res, httpLatency(me, st[i]))
		if res == battleship.ResultWin {
			return gameResult{winner: i, shots: len(me.strikes)}, nil
		}
	}
}

// gameEnder is a player told when a game is over (the referee's agents
// learn from it; the arena tells real bots nothing).
type gameEnder interface {
	gameOver(gameID, seat int)
}

func gameOver(seats [2]*seat, gameID int) {
	for i, s := range seats {
		if e, ok := s.p.(gameEnder); ok {
			e.gameOver(gameID, i)
		}
	}
}
