package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/record"
)

// strike is one history entry exactly as the arena sends it.
type strike struct {
	Target string `json:"target"`
	Result string `json:"result"`
}

// initMsg and turnMsg reproduce act.php's messages, keys in the same order,
// board numbers as strings, "game" spelt as the arena spells it.
type initMsg struct {
	GameID      int       `json:"game-id"`
	Game        string    `json:"game"`
	Action      string    `json:"action"`
	Players     int       `json:"players"`
	PlayerIndex int       `json:"player-index"`
	Board       initBoard `json:"board"`
}

type initBoard struct {
	Opponent string `json:"opponent"`
	Width    string `json:"width"`
	Height   string `json:"height"`
	Ship1    string `json:"ship1"`
	Ship2    string `json:"ship2"`
	Ship3    string `json:"ship3"`
	Ship4    string `json:"ship4"`
	Ship5    string `json:"ship5"`
	Ship6    string `json:"ship6"`
}

type turnMsg struct {
	Game        string    `json:"game"`
	GameID      int       `json:"game-id"`
	Action      string    `json:"action"`
	PlayerIndex int       `json:"player-index"`
	Board       turnBoard `json:"board"`
}

type turnBoard struct {
	initBoard
	YourStrikes []strike `json:"your_strikes"`
	HisStrikes  []strike `json:"his_strikes"`
}

func boardFor(r battleship.Rules, opponent string) initBoard {
	s := func(v int) string { return strconv.Itoa(v) }
	f := r.Fleet
	return initBoard{Opponent: opponent, Width: s(r.W), Height: s(r.H),
		Ship1: s(f[1]), Ship2: s(f[2]), Ship3: s(f[3]), Ship4: s(f[4]), Ship5: s(f[5]), Ship6: s(f[6])}
}

// invalidError is an answer the arena would punish with a loss.
type invalidError struct{ reason string }

func (e *invalidError) Error() string { return e.reason }

func invalidf(format string, args ...any) error {
	return &invalidError{reason: fmt.Sprintf(format, args...)}
}

// decodeAnswer mirrors `json_decode($output, TRUE)` followed by
// isset($arr[key]): the answer must be a JSON object with a non-null key.
func decodeAnswer(body []byte, key string) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, invalidf("answer is not a JSON object: %.80q", body)
	}
	v, ok := obj[key]
	if !ok || string(v) == "null" {
		return nil, invalidf("answer has no %q: %.80q", key, body)
	}
	return v, nil
}

// checkBoats validates an init answer as act.php does (§5 of the spec) and
// returns the placed ships.
func checkBoats(r battleship.Rules, raw json.RawMessage) ([]battleship.Ship, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var obj map[string]string
		if err2 := json.Unmarshal(raw, &obj); err2 != nil {
			return nil, invalidf("boats is not a list of strings: %.80s", raw)
		}
		for _, v := range obj {
			list = append(list, v)
		}
	}
	var ships []battleship.Ship
	for _, b := range list {
		start, end, _ := strings.Cut(b, "-")
		end, _, _ = strings.Cut(end, "-")
		x1, y1, ok1 := phpCell(start)
		x2, y2, ok2 := phpCell(end)
		if !ok1 || !ok2 {
			return nil, invalidf("boat %q: end point is not a canonical cell", b)
		}
		if x1 != x2 && y1 != y2 {
			return nil, invalidf("boat %q is diagonal", b)
		}
		s := battleship.Ship{X: min(x1, x2), Y: min(y1, y2)}
		if x1 == x2 {
			s.L, s.Vertical = abs(y1-y2)+1, true
		} else {
			s.L = abs(x1-x2) + 1
		}
		if s.L == 1 {
			s.Vertical = false
		}
		ships = append(ships, s)
	}
	if err := battleship.CheckPlacement(r, ships); err != nil {
		return nil, invalidf("boats %v: %v", list, err)
	}
	return ships, nil
}

// phpCell reads "x,y" (extra ",..." parts ignored) with canonical integers,
// the only keys PHP's isset($map[$y][$x]) finds.
func phpCell(s string) (int, int, bool) {
	parts := strings.SplitN(s, ",", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	return battleship.ParseTarget(parts[0] + "," + parts[1])
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// seat is one side of a game.
type seat struct {
	p       player
	label   string
	ships   []battleship.Ship
	arena   *battleship.Arena // the fleet this seat hides, shot at by the other seat
	strikes []strike          // this seat's shots
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
		msg := initMsg{GameID: gameID, Game: "battleship", Action: "init", Players: 2, PlayerIndex: i,
			Board: boardFor(r, seats[1-i].label)}
		body, _ := json.Marshal(msg)
		out, err := st[i].timed(ctx, s.p, body)
		if ctx.Err() != nil {
			return gameResult{}, ctx.Err()
		}
		if err != nil {
			return gameResult{winner: 1 - i, invalid: "init: " + err.Error()}, nil
		}
		raw, err := decodeAnswer(out, "boats")
		if err == nil {
			s.ships, err = checkBoats(r, raw)
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
		msg := turnMsg{Game: "Battleship", GameID: gameID, Action: "play-turn", PlayerIndex: i,
			Board: turnBoard{initBoard: boardFor(r, him.label), YourStrikes: me.strikes, HisStrikes: him.strikes}}
		if msg.Board.YourStrikes == nil {
			msg.Board.YourStrikes = []strike{}
		}
		if msg.Board.HisStrikes == nil {
			msg.Board.HisStrikes = []strike{}
		}
		body, _ := json.Marshal(msg)
		out, err := st[i].timed(ctx, me.p, body)
		if ctx.Err() != nil {
			return gameResult{}, ctx.Err()
		}
		if err != nil {
			return gameResult{winner: 1 - i, invalid: "play-turn: " + err.Error()}, nil
		}
		raw, err := decodeAnswer(out, "play")
		var play string
		if err == nil && json.Unmarshal(raw, &play) != nil {
			err = invalidf("play is not a string: %.40s", raw)
		}
		var target string
		if err == nil {
			var ok bool
			if target, ok = him.arena.ValidShot(play); !ok {
				err = invalidf("shot %q is malformed or off the %dx%d board", play, r.W, r.H)
			}
		}
		if err != nil {
			return gameResult{winner: 1 - i, invalid: "play-turn: " + err.Error()}, nil
		}
		res := him.arena.Shoot(target)
		me.strikes = append(me.strikes, strike{Target: target, Result: res})
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
