// Package fakeserver is an in-memory FlipSight server for tests: the agent
// API (agent_poll, agent_accept, agent_reject, agent_challenge, agent_move)
// with its error table, the NDJSON event stream, two-leg bot matches against
// a built-in opponent, human games, clocks with adjudication, and fault
// injection (status codes, lost answers, stale revisions, refused moves).
package fakeserver

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
)

// Server is the fake. Configure the exported fields before serving.
type Server struct {
	Token    string
	BotID    int64 // the connector's bot
	OppID    int64 // the built-in opponent
	ClockMs  int64 // per leg per colour (60 000)
	MaxBody  int64
	MaxConns int // event streams per bot (3)
	Ping     time.Duration

	mu      sync.Mutex
	rng     *rand.Rand
	nextID  int64
	matches map[int64]*fmatch
	order   []int64
	streams int
	subs    map[chan []byte]bool
	faults  Faults
	// Records, for assertions.
	moves    []MoveRecord
	polls    []time.Time
	envs     []flipsight.Environment
	accepts  []int64
	streamsN int
}

// Faults are injected failures, each consumed once per use.
type Faults struct {
	PollStatus     []int // statuses for the next agent_poll calls (e.g. 503)
	LoseMoveAnswer int   // apply the next N moves but answer 502
	BumpRevision   int   // before the next N moves, change the leg's revision (→ stale_revision)
	RejectIllegal  int   // refuse the next N (legal) moves with 409 illegal_move
	StreamStatus   []int // statuses for the next stream connections (e.g. 429)
	StreamDrop     int   // end the next N streams right after hello
}

// MoveRecord is one agent_move call.
type MoveRecord struct {
	Match    int64
	Leg      int
	Revision int64
	Move     any
	Status   int
	Error    string
	RoundNo  *int64
	RoomAt   *string
}

type fmatch struct {
	m             flipsight.Match
	legs          []*othello.State
	mode          othello.Mode
	human         bool
	sentPassByBot int
}

// New returns a fake server with the platform's defaults.
func New(seed uint64) *Server {
	return &Server{
		Token: "fsbm_test", BotID: 7, OppID: 3, ClockMs: 60000, MaxBody: 64 << 10, MaxConns: 3, Ping: 10 * time.Second,
		rng: rand.New(rand.NewPCG(seed, 99)), nextID: 100, matches: map[int64]*fmatch{}, subs: map[chan []byte]bool{},
	}
}

// SetFaults replaces the pending faults.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	s.faults = f
	s.mu.Unlock()
}

// Moves returns the agent_move calls so far.
func (s *Server) Moves() []MoveRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.moves)
}

// Polls returns the times of agent_poll calls.
func (s *Server) Polls() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.polls)
}

// Envs returns the environment reports received.
func (s *Server) Envs() []flipsight.Environment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.envs)
}

// StreamConnections counts stream connections accepted so far.
func (s *Server) StreamConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streamsN
}

// Match returns a copy of a match.
func (s *Server) Match(id int64) (flipsight.Match, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fm, ok := s.matches[id]
	if !ok {
		return flipsight.Match{}, false
	}
	s.refreshLocked(fm)
	return s.viewLocked(fm), true
}

func nowMs() int64 { return time.Now().UnixMilli() }

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
			st.Placed = [2]int{0, 0}
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
	id := s.nextID
	s.nextID++
	fm := &fmatch{mode: mode, legs: []*othello.State{start.Clone(), start.Clone()}}
	fm.m = flipsight.Match{
		ID: id, BotA: s.OppID, BotB: s.BotID, GameMode: mode.String(), TimeLimitSec: int(s.ClockMs / 1000),
		Status: "pending", ExpiresMs: nowMs() + 120000,
	}
	fm.m.State = s.newState(fm)
	s.syncLocked(fm)
	s.matches[id] = fm
	s.order = append(s.order, id)
	s.broadcastLocked(fm)
	return id
}

// HumanGame starts a running human game (negative id, one leg) in which the
// bot plays black when botBlack.
func (s *Server) HumanGame(room int64, botBlack bool, empties int) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := s.startPosition(othello.Std, empties)
	id := -room
	round := int64(3)
	created := "2026-11-30 12:00:00"
	fm := &fmatch{mode: othello.Std, legs: []*othello.State{start}, human: true}
	fm.m = flipsight.Match{
		ID: id, Kind: "human", BotA: s.BotID, BotB: 0, GameMode: "std", TimeLimitSec: int(s.ClockMs / 1000),
		Status: "running", RoomID: room, RoundNo: &round, RoomCreatedAt: &created,
	}
	fm.m.State = s.newState(fm)
	bp := 1
	if botBlack {
		bp = 0
	}
	fm.m.State.Legs[0].BlackParticipant = bp
	s.startClocksLocked(fm)
	s.matches[id] = fm
	s.order = append(s.order, id)
	s.autoMovesLocked(fm)
	s.broadcastLocked(fm)
	return id
}

func (s *Server) newState(fm *fmatch) *flipsight.State {
	st := &flipsight.State{
		Version: 1, GameMode: fm.mode.String(), TimeLimitSec: int(s.ClockMs / 1000), Status: "active",
		BoardSize: fm.mode.Size(), BlockedSquares: fm.mode.Blocked(), Totals: []int{0, 0},
	}
	if st.BlockedSquares == nil {
		st.BlockedSquares = []int{}
	}
	for i := range fm.legs {
		st.Legs = append(st.Legs, flipsight.Leg{BlackParticipant: i, Status: "active", ClocksMs: []int64{s.ClockMs, s.ClockMs}, History: []flipsight.HistoryEntry{}})
	}
	return st
}

func (s *Server) startClocksLocked(fm *fmatch) {
	now := nowMs()
	fm.m.State.StartedMs = now
	for i := range fm.m.State.Legs {
		fm.m.State.Legs[i].TurnStartedMs = now
	}
}

// colorOf returns the colour of participant p in leg li.
func colorOf(fm *fmatch, li, p int) int {
	if fm.m.State.Legs[li].BlackParticipant == p {
		return othello.Black
	}
	return othello.White
}

// botParticipant is the connector's participant number.
func (s *Server) botParticipant(fm *fmatch) int {
	if fm.m.BotA == s.BotID {
		return 0
	}
	return 1
}

// refreshLocked applies clock expiry and updates derived fields.
func (s *Server) refreshLocked(fm *fmatch) {
	if fm.m.Status != "running" {
		return
	}
	now := nowMs()
	for li, st := range fm.legs {
		leg := &fm.m.State.Legs[li]
		if leg.Status != "active" {
			continue
		}
		c := st.Turn
		if now-leg.TurnStartedMs > leg.ClocksMs[c-1] {
			leg.Status = "timeout"
			max := fm.mode.PlayableSquares()
			lose, win := 0, max
			if fm.mode == othello.Anti {
				lose, win = 64, 0
			}
			if c == othello.Black {
				leg.ResultDiscs = []int{lose, win}
			} else {
				leg.ResultDiscs = []int{win, lose}
			}
			leg.Revision++
			fin := now
			leg.FinishedMs = &fin
		}
	}
	s.syncLocked(fm)
}

// syncLocked copies the rules states into the match object and finishes it
// when both legs are over.
func (s *Server) syncLocked(fm *fmatch) {
	st := fm.m.State
	allDone := true
	totals := []int{0, 0}
	for li, g := range fm.legs {
		leg := &st.Legs[li]
		leg.Board = make([]int, len(g.Cells))
		for i, v := range g.Cells {
			leg.Board[i] = int(v)
		}
		leg.Turn = g.Turn
		leg.Placed = flipsight.Placed{"1": g.Placed[0], "2": g.Placed[1]}
		b, w := g.Discs()
		leg.Discs = []int{b, w}
		if leg.Status == "active" && g.Over() {
			leg.Status = "finished"
			fin := nowMs()
			leg.FinishedMs = &fin
		}
		if leg.Status == "active" {
			allDone = false
			leg.LegalMoves = g.LegalMoves()
			if leg.LegalMoves == nil {
				leg.LegalMoves = []int{}
			}
		} else {
			leg.LegalMoves = []int{}
		}
		res := leg.Discs
		if leg.ResultDiscs != nil {
			res = leg.ResultDiscs
		}
		bp := leg.BlackParticipant
		totals[bp] += res[0]
		totals[1-bp] += res[1]
	}
	st.Totals = totals
	if allDone && fm.m.Status == "running" {
		fm.m.Status = "finished"
		st.Status = "finished"
		reason := "discs"
		for _, l := range st.Legs {
			if l.Status == "timeout" {
				reason = "timeout"
			}
		}
		st.FinishReason = &reason
		a, b := totals[0], totals[1]
		if fm.mode == othello.Anti {
			a, b = b, a
		}
		switch {
		case a > b:
			w := 0
			st.Winner = &w
		case b > a:
			w := 1
			st.Winner = &w
		}
	}
}

// applyLocked plays move for the side to move in leg li (validated).
func (s *Server) applyLocked(fm *fmatch, li int, move int) {
	g := fm.legs[li]
	leg := &fm.m.State.Legs[li]
	now := nowMs()
	c := g.Turn
	leg.ClocksMs[c-1] -= now - leg.TurnStartedMs
	p := 0
	if colorOf(fm, li, 1) == c {
		p = 1
	}
	_ = g.Play(move)
	leg.History = append(leg.History, flipsight.HistoryEntry{Color: c, Participant: p, Move: move, AtMs: now})
	leg.TurnStartedMs = now
	leg.Revision++
	fm.m.State.Revision++
}

// autoMovesLocked lets the server-side side move: the built-in opponent (or
// the person) plays a random legal move or passes; in human games the server
// also passes for the bot.
func (s *Server) autoMovesLocked(fm *fmatch) {
	bp := s.botParticipant(fm)
	for li, g := range fm.legs {
		for fm.m.State.Legs[li].Status == "active" && !g.Over() {
			botTurn := colorOf(fm, li, bp) == g.Turn
			legal := g.LegalMoves()
			if botTurn && !(fm.human && len(legal) == 0) {
				break
			}
			mv := othello.Pass
			if len(legal) > 0 {
				mv = legal[s.rng.IntN(len(legal))]
			}
			s.applyLocked(fm, li, mv)
		}
	}
	s.syncLocked(fm)
}

// ServeHTTP routes /api (the agent API) and /stream (the event stream).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api":
		s.serveAPI(w, r)
	case "/stream":
		s.serveStream(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"ok": false, "error": msg, "server_now_ms": nowMs()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func (s *Server) authorized(r *http.Request) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.Header.Get("Authorization") == "Bearer "+s.Token
}

// Revoke changes the token: every later call gets 401.
func (s *Server) Revoke() {
	s.mu.Lock()
	s.Token = "fsbm_revoked"
	s.mu.Unlock()
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.fail(w, http.StatusMethodNotAllowed, "POST required")
		return
	}
	if !s.authorized(r) {
		s.fail(w, http.StatusUnauthorized, "invalid bot credential")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.MaxBody))
	if err != nil {
		s.fail(w, http.StatusRequestEntityTooLarge, "request too large")
		return
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil || req == nil {
		s.fail(w, http.StatusBadRequest, "JSON object required")
		return
	}
	var action string
	_ = json.Unmarshal(req["action"], &action)
	switch action {
	case "agent_poll":
		s.poll(w, req)
	case "agent_accept", "agent_reject":
		s.answerChallenge(w, req, action == "agent_accept")
	case "agent_move":
		s.move(w, req)
	case "agent_challenge":
		s.challenge(w, req)
	default:
		s.fail(w, http.StatusBadRequest, "unknown action")
	}
}

func (s *Server) viewLocked(fm *fmatch) flipsight.Match {
	b, _ := json.Marshal(fm.m)
	var m flipsight.Match
	_ = json.Unmarshal(b, &m)
	return m
}

func (s *Server) poll(w http.ResponseWriter, req map[string]json.RawMessage) {
	s.mu.Lock()
	s.polls = append(s.polls, time.Now())
	if len(s.faults.PollStatus) > 0 {
		st := s.faults.PollStatus[0]
		s.faults.PollStatus = s.faults.PollStatus[1:]
		s.mu.Unlock()
		s.fail(w, st, map[int]string{503: "bot match storage unavailable", 429: "too many requests", 500: "internal"}[st])
		return
	}
	if raw, ok := req["environment"]; ok {
		var env flipsight.Environment
		if json.Unmarshal(raw, &env) == nil {
			s.envs = append(s.envs, env)
		}
	}
	var list []flipsight.Match
	for _, id := range s.order {
		fm := s.matches[id]
		if fm.m.Status == "pending" && nowMs() > fm.m.ExpiresMs {
			fm.m.Status = "expired"
		}
		s.refreshLocked(fm)
		list = append(list, s.viewLocked(fm))
	}
	me := flipsight.Bot{ID: s.BotID, Name: "gamebot", SupportedGames: []string{"std", "anti", "grand", "octagon", "reversi"}, Online: true}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"ok": true, "bots": []flipsight.Bot{me, {ID: s.OppID, Name: "builtin", IsBuiltin: true, Online: true}},
		"record_bots": []flipsight.Bot{}, "matches": list, "me": 1, "bot": me, "server_now_ms": nowMs(),
	})
}

func intParam(req map[string]json.RawMessage, name string) (int64, bool) {
	raw, ok := req[name]
	if !ok {
		return 0, false
	}
	var n int64
	if json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return n, true
}

func (s *Server) answerChallenge(w http.ResponseWriter, req map[string]json.RawMessage, accept bool) {
	id, _ := intParam(req, "match_id")
	s.mu.Lock()
	fm, ok := s.matches[id]
	if !ok || fm.m.Status != "pending" || fm.m.BotB != s.BotID || nowMs() > fm.m.ExpiresMs {
		s.mu.Unlock()
		s.fail(w, http.StatusConflict, "challenge expired or answered")
		return
	}
	if accept {
		s.accepts = append(s.accepts, id)
		fm.m.Status = "running"
		s.startClocksLocked(fm)
		s.autoMovesLocked(fm)
	} else {
		fm.m.Status = "rejected"
	}
	s.broadcastLocked(fm)
	m := map[string]any{"id": id, "status": fm.m.Status, "bot_a": fm.m.BotA, "bot_b": fm.m.BotB}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "match": m, "server_now_ms": nowMs()})
}

func (s *Server) challenge(w http.ResponseWriter, req map[string]json.RawMessage) {
	mode := "std"
	if raw, ok := req["game_mode"]; ok {
		_ = json.Unmarshal(raw, &mode)
	}
	m, err := othello.ParseMode(mode)
	if err != nil {
		s.fail(w, http.StatusConflict, "unsupported game mode")
		return
	}
	if _, ok := intParam(req, "target_id"); !ok {
		if _, ok := req["target_name"]; !ok {
			s.fail(w, http.StatusConflict, "target bot not found")
			return
		}
	}
	id := s.Challenge(m, 0)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "match_id": id, "server_now_ms": nowMs()})
}

func (s *Server) move(w http.ResponseWriter, req map[string]json.RawMessage) {
	id, _ := intParam(req, "match_id")
	li64, _ := intParam(req, "leg")
	rev, _ := intParam(req, "revision")
	li := int(li64)
	var rawMove any
	_ = json.Unmarshal(req["move"], &rawMove)
	rec := MoveRecord{Match: id, Leg: li, Revision: rev, Move: rawMove}
	if raw, ok := req["round_no"]; ok {
		var n int64
		if json.Unmarshal(raw, &n) == nil {
			rec.RoundNo = &n
		}
	}
	if raw, ok := req["room_created_at"]; ok {
		var t string
		if json.Unmarshal(raw, &t) == nil {
			rec.RoomAt = &t
		}
	}
	s.mu.Lock()
	status, msg := s.moveLocked(&rec, req)
	rec.Status, rec.Error = status, msg
	s.moves = append(s.moves, rec)
	var view map[string]any
	if fm, ok := s.matches[id]; ok {
		view = map[string]any{"id": id, "status": fm.m.Status, "bot_a": fm.m.BotA, "bot_b": fm.m.BotB}
	}
	s.mu.Unlock()
	if status != http.StatusOK {
		s.fail(w, status, msg)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "match": view, "server_now_ms": nowMs()})
}

// moveLocked validates and applies an agent_move; it returns the status
// and error string of the answer.
func (s *Server) moveLocked(rec *MoveRecord, req map[string]json.RawMessage) (int, string) {
	fm, ok := s.matches[rec.Match]
	if !ok || rec.Match == 0 {
		return http.StatusConflict, "match not running"
	}
	s.refreshLocked(fm)
	if fm.m.Status != "running" {
		return http.StatusConflict, "match not running"
	}
	if rec.Leg < 0 || rec.Leg >= len(fm.legs) {
		return http.StatusConflict, "leg_finished"
	}
	leg := &fm.m.State.Legs[rec.Leg]
	g := fm.legs[rec.Leg]
	if fm.human {
		if rec.RoundNo == nil || rec.RoomAt == nil || *rec.RoundNo != *fm.m.RoundNo || *rec.RoomAt != *fm.m.RoomCreatedAt {
			return http.StatusConflict, "stale room revision"
		}
	}
	if leg.Status == "timeout" {
		return http.StatusConflict, "match timed out"
	}
	if leg.Status != "active" {
		return http.StatusConflict, "leg_finished"
	}
	if s.faults.BumpRevision > 0 {
		s.faults.BumpRevision--
		leg.Revision++
		s.broadcastLocked(fm)
	}
	if rec.Revision != leg.Revision {
		return http.StatusConflict, "stale_revision"
	}
	if colorOf(fm, rec.Leg, s.botParticipant(fm)) != g.Turn {
		return http.StatusConflict, "not_your_turn"
	}
	mv, err := parseMove(req["move"], fm.mode.Size())
	if err != nil {
		return http.StatusConflict, err.Error()
	}
	legal := g.LegalMoves()
	if mv == othello.Pass {
		if len(legal) > 0 || fm.human {
			return http.StatusConflict, "illegal_move"
		}
	} else if !slices.Contains(legal, mv) {
		return http.StatusConflict, "illegal_move"
	}
	if s.faults.RejectIllegal > 0 {
		s.faults.RejectIllegal--
		return http.StatusConflict, "illegal_move"
	}
	s.applyLocked(fm, rec.Leg, mv)
	s.autoMovesLocked(fm)
	s.broadcastLocked(fm)
	if s.faults.LoseMoveAnswer > 0 {
		s.faults.LoseMoveAnswer--
		return http.StatusBadGateway, "bad gateway"
	}
	return http.StatusOK, ""
}

func parseMove(raw json.RawMessage, size int) (int, error) {
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		if n < -1 || n >= size*size {
			return 0, fmt.Errorf("move outside board")
		}
		return n, nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err != nil {
		return 0, fmt.Errorf("invalid move coordinate")
	}
	if v, err := strconv.Atoi(str); err == nil {
		return parseMove([]byte(strconv.Itoa(v)), size)
	}
	m, err := othello.ParseMove(str, size)
	if err != nil {
		return 0, fmt.Errorf("invalid move coordinate")
	}
	return m, nil
}

// broadcastLocked sends a match event to every stream.
func (s *Server) broadcastLocked(fm *fmatch) {
	var ev map[string]any
	if fm.human {
		ev = map[string]any{"type": "match", "match": map[string]any{"id": fm.m.ID, "kind": "human", "room_id": fm.m.RoomID}, "server_now_ms": nowMs()}
	} else {
		ev = map[string]any{"type": "match", "match": s.viewLocked(fm), "server_now_ms": nowMs()}
	}
	b, _ := json.Marshal(ev)
	b = append(b, '\n')
	for ch := range s.subs {
		select {
		case ch <- b:
		default: // slow reader: drop (the agent also polls)
		}
	}
}

func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		s.fail(w, http.StatusUnauthorized, "invalid bot credential")
		return
	}
	s.mu.Lock()
	if len(s.faults.StreamStatus) > 0 {
		st := s.faults.StreamStatus[0]
		s.faults.StreamStatus = s.faults.StreamStatus[1:]
		s.mu.Unlock()
		s.fail(w, st, "too many streams")
		return
	}
	if s.streams >= s.MaxConns {
		s.mu.Unlock()
		s.fail(w, http.StatusTooManyRequests, "too many streams")
		return
	}
	drop := false
	if s.faults.StreamDrop > 0 {
		s.faults.StreamDrop--
		drop = true
	}
	s.streams++
	s.streamsN++
	ch := make(chan []byte, 64)
	s.subs[ch] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.streams--
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	write := func(b []byte) bool {
		if _, err := w.Write(b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	hello, _ := json.Marshal(map[string]any{"type": "hello", "bot_id": s.BotID, "server_now_ms": nowMs()})
	if !write(append(hello, '\n')) || drop {
		return
	}
	ping := time.NewTicker(s.Ping)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case b := <-ch:
			if !write(b) {
				return
			}
		case <-ping.C:
			p, _ := json.Marshal(map[string]any{"type": "ping", "server_now_ms": nowMs()})
			if !write(append(p, '\n')) {
				return
			}
		}
	}
}
