package fakeserver

import (
	"time"

	"github.com/botarena/gamebot/othello"
)

// nowMs is the server's clock in milliseconds, with sub-millisecond parts.
func nowMs() float64 { return float64(time.Now().UnixMicro()) / 1000 }

// startPosition plays the opening: 8 random moves (reversi: 12 random
// placements), then, when empties > 0, random moves until that many
// empties are left (short games for tests).
func (s *Server) startPosition(mode othello.Mode, empties int) *othello.State {
	for {
		st := othello.NewState(mode)
		n := 8
		if mode == othello.Reversi {
			n = 12
		}
		ok := true
		for i := 0; ; i++ {
			b, w := st.Discs()
			left := mode.PlayableSquares() - b - w
			if i >= n && (empties <= 0 || left <= empties) {
				break
			}
			legal := st.LegalMoves()
			if len(legal) == 0 {
				if st.Over() {
					ok = false
					break
				}
				_ = st.Play(othello.Pass)
				continue
			}
			_ = st.Play(legal[s.rng.IntN(len(legal))])
		}
		if ok && !st.Over() && st.Turn == othello.Black {
			b, w := st.Discs()
			if mode == othello.Reversi {
				st.Placed = [2]int{(b + w + 1) / 2, (b + w) / 2}
			} else {
				st.Placed = [2]int{(b + w - 4) / 2, (b + w - 4) / 2}
			}
			return st
		}
	}
}

// Challenge creates a pending bot match in which the built-in opponent
// challenges the connector's bot (bot_b). empties > 0 shortens the game.
func (s *Server) Challenge(mode othello.Mode, empties int) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := s.startPosition(mode, empties)
	fm := &fmatch{id: s.nextID, botA: s.OppID, botB: s.BotID, mode: mode, status: "pending", expires: nowMs() + 120000}
	s.nextID++
	for i := range 2 {
		fm.legs = append(fm.legs, &fleg{g: start.Clone(), black: i, status: "active", clocks: [2]float64{float64(s.ClockMs), float64(s.ClockMs)}})
	}
	s.matches[fm.id] = fm
	s.order = append(s.order, fm.id)
	s.broadcastLocked(fm)
	return fm.id
}

// HumanGame starts a running human game (negative id, one leg) in which the
// bot plays black when botBlack.
func (s *Server) HumanGame(room int64, botBlack bool, empties int) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := s.startPosition(othello.Std, empties)
	fm := &fmatch{id: -room, botA: s.BotID, mode: othello.Std, status: "running", human: true, room: room, round: 3, roomCreated: "2026-11-30 12:00:00"}
	black := 1
	if botBlack {
		black = 0
	}
	fm.legs = []*fleg{{g: start, black: black, status: "active", clocks: [2]float64{float64(s.ClockMs), float64(s.ClockMs)}}}
	s.startClocksLocked(fm)
	s.matches[fm.id] = fm
	s.order = append(s.order, fm.id)
	s.autoMovesLocked(fm)
	s.broadcastLocked(fm)
	return fm.id
}

// Touch changes a leg's revision without a move (as a server-side change
// of the leg would) and tells the streams.
func (s *Server) Touch(id int64, leg int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fm, ok := s.matches[id]; ok && leg < len(fm.legs) {
		fm.legs[leg].revision++
		fm.revision++
		s.broadcastLocked(fm)
	}
}

func (s *Server) startClocksLocked(fm *fmatch) {
	now := nowMs()
	fm.started = now
	for _, l := range fm.legs {
		l.turnStarted = now
	}
}

// botParticipant is the connector's participant number.
func (s *Server) botParticipant(fm *fmatch) int {
	if fm.botA == s.BotID {
		return 0
	}
	return 1
}

func colorOf(l *fleg, participant int) int {
	if l.black == participant {
		return othello.Black
	}
	return othello.White
}

// refreshLocked applies clock expiry: a leg whose side to move ran out is
// adjudicated (0 for the side that timed out, the maximum for the other;
// anti the other way round).
func (s *Server) refreshLocked(fm *fmatch) {
	if fm.status != "running" {
		return
	}
	now := nowMs()
	for _, l := range fm.legs {
		if l.status != "active" {
			continue
		}
		c := l.g.Turn
		if now-l.turnStarted > l.clocks[c-1] {
			l.status = "timeout"
			lose, win := 0, fm.mode.PlayableSquares()
			if fm.mode == othello.Anti {
				lose, win = 64, 0
			}
			l.resultDiscs = []int{win, lose}
			if c == othello.Black {
				l.resultDiscs = []int{lose, win}
			}
			l.revision++
			l.finished = now
		}
	}
	s.finishLocked(fm)
}

// finishLocked ends legs that are over and the match when both are.
func (s *Server) finishLocked(fm *fmatch) {
	all := true
	for _, l := range fm.legs {
		if l.status == "active" && l.g.Over() {
			l.status = "finished"
			l.finished = nowMs()
		}
		all = all && l.status != "active"
	}
	if all && fm.status == "running" {
		fm.status = "finished"
		fm.finished = nowMs()
		fm.reason = "discs"
		for _, l := range fm.legs {
			if l.status == "timeout" {
				fm.reason = "timeout"
			}
		}
	}
}

func (s *Server) totalsLocked(fm *fmatch) [2]int {
	var t [2]int
	for _, l := range fm.legs {
		b, w := l.g.Discs()
		res := []int{b, w}
		if l.resultDiscs != nil {
			res = l.resultDiscs
		}
		t[l.black] += res[0]
		t[1-l.black] += res[1]
	}
	return t
}

// applyLocked plays move for the side to move in leg l.
func (s *Server) applyLocked(fm *fmatch, l *fleg, move int) time.Duration {
	now := nowMs()
	c := l.g.Turn
	used := now - l.turnStarted
	l.clocks[c-1] -= used
	p := 0
	if colorOf(l, 1) == c {
		p = 1
	}
	_ = l.g.Play(move)
	l.history = append(l.history, hist{color: c, participant: p, move: move, at: now})
	l.turnStarted = now
	l.revision++
	fm.revision++
	return time.Duration(used * float64(time.Millisecond))
}

// autoMovesLocked lets the server-side side move: the built-in opponent (or
// the person) plays a random legal move or passes; in human games the server
// also passes for the bot.
func (s *Server) autoMovesLocked(fm *fmatch) {
	bp := s.botParticipant(fm)
	for _, l := range fm.legs {
		for l.status == "active" && !l.g.Over() {
			legal := l.g.LegalMoves()
			if colorOf(l, bp) == l.g.Turn && !(fm.human && len(legal) == 0) {
				break
			}
			mv := othello.Pass
			if len(legal) > 0 {
				mv = legal[s.rng.IntN(len(legal))]
			}
			s.applyLocked(fm, l, mv)
		}
	}
	s.finishLocked(fm)
}
