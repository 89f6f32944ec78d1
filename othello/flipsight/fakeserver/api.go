package fakeserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/othello"
)

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

// fail answers the documentation's error shape.
func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	e := tpl("error.json")
	e["error"] = msg
	e["server_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	writeJSON(w, status, e)
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
		s.poll(w, r, req)
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

func (s *Server) poll(w http.ResponseWriter, r *http.Request, req map[string]json.RawMessage) {
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
		var env Env
		if json.Unmarshal(raw, &env) == nil {
			s.envs = append(s.envs, env)
		}
	}
	reply := tpl("agent_poll.json")
	list := []any{}
	for _, id := range s.order {
		fm := s.matches[id]
		if fm.status == "pending" && nowMs() > fm.expires {
			fm.status = "expired"
		}
		s.refreshLocked(fm)
		list = append(list, s.renderLocked(fm))
	}
	reply["matches"] = list
	// The documentation's bots: "Opponent" (id 1) and ours, "MyBot" (id 2);
	// renumbered when the test uses other ids.
	for _, b := range reply["bots"].([]any) {
		bm := b.(map[string]any)
		if bm["name"] == "MyBot" {
			bm["id"] = s.id(s.BotID)
			bm["supported_games"] = []any{"std", "anti", "grand", "octagon", "reversi"}
		} else {
			bm["id"] = s.id(s.OppID)
			bm["is_builtin"] = true
		}
	}
	bot := reply["bot"].(map[string]any)
	bot["id"] = s.id(s.BotID)
	bot["supported_games"] = []any{"std", "anti", "grand", "octagon", "reversi"}
	reply["server_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	delay := s.PollDelay
	s.mu.Unlock()
	if delay > 0 {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done(): // the client gave up: nobody reads the answer
			return
		}
	}
	writeJSON(w, http.StatusOK, reply)
}

// intParam reads an integer parameter as the real server would: a number
// or a numeric string.
func intParam(req map[string]json.RawMessage, name string) (int64, bool) {
	raw, ok := req[name]
	if !ok {
		return 0, false
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return n, true
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		if v, err := strconv.ParseInt(str, 10, 64); err == nil {
			return v, true
		}
	}
	return 0, false
}

func (s *Server) matchSummary(fm *fmatch, name string) map[string]any {
	reply := tpl(name)
	m := reply["match"].(map[string]any)
	m["id"], m["status"], m["bot_a"], m["bot_b"] = s.id(fm.id), fm.status, s.id(fm.botA), s.id(fm.botB)
	reply["server_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	return reply
}

func (s *Server) answerChallenge(w http.ResponseWriter, req map[string]json.RawMessage, accept bool) {
	id, _ := intParam(req, "match_id")
	s.mu.Lock()
	fm, ok := s.matches[id]
	if !ok || fm.status != "pending" || fm.botB != s.BotID || nowMs() > fm.expires {
		s.mu.Unlock()
		s.fail(w, http.StatusConflict, "challenge expired or answered")
		return
	}
	name := "agent_reject.json"
	if accept {
		name = "agent_accept.json"
		s.accepts = append(s.accepts, id)
		fm.status = "running"
		s.startClocksLocked(fm)
		s.autoMovesLocked(fm)
	} else {
		fm.status = "rejected"
	}
	s.broadcastLocked(fm)
	reply := s.matchSummary(fm, name)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, reply)
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
	reply := tpl("agent_challenge.json")
	reply["match_id"] = s.id(id)
	reply["server_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	writeJSON(w, http.StatusOK, reply)
}

func (s *Server) move(w http.ResponseWriter, req map[string]json.RawMessage) {
	id, _ := intParam(req, "match_id")
	li64, _ := intParam(req, "leg")
	rev, _ := intParam(req, "revision")
	var rawMove any
	_ = json.Unmarshal(req["move"], &rawMove)
	rec := MoveRecord{Match: id, Leg: int(li64), Revision: rev, Move: rawMove, RoundNo: req["round_no"], RoomAt: req["room_created_at"], At: time.Now()}
	s.mu.Lock()
	status, msg := s.moveLocked(&rec, req)
	rec.Status, rec.Error = status, msg
	s.moves = append(s.moves, rec)
	var reply map[string]any
	if fm, ok := s.matches[id]; ok {
		reply = s.matchSummary(fm, "agent_move.json")
	}
	s.mu.Unlock()
	if status != http.StatusOK {
		s.fail(w, status, msg)
		return
	}
	writeJSON(w, http.StatusOK, reply)
}

// moveLocked validates and applies an agent_move; it returns the status
// and error string of the answer.
func (s *Server) moveLocked(rec *MoveRecord, req map[string]json.RawMessage) (int, string) {
	if len(s.faults.MoveStatus) > 0 {
		st := s.faults.MoveStatus[0]
		s.faults.MoveStatus = s.faults.MoveStatus[1:]
		return st, map[int]string{503: "bot match storage unavailable", 502: "bad gateway", 500: "internal"}[st]
	}
	fm, ok := s.matches[rec.Match]
	if !ok || rec.Match == 0 {
		return http.StatusConflict, "match not running"
	}
	s.refreshLocked(fm)
	if fm.status != "running" {
		return http.StatusConflict, "match not running"
	}
	if rec.Leg < 0 || rec.Leg >= len(fm.legs) {
		return http.StatusConflict, "leg_finished"
	}
	l := fm.legs[rec.Leg]
	if fm.human {
		round, _ := intParam(req, "round_no")
		var created string
		_ = json.Unmarshal(req["room_created_at"], &created)
		if round != fm.round || created != fm.roomCreated {
			return http.StatusConflict, "stale room revision"
		}
	}
	if l.status == "timeout" {
		return http.StatusConflict, "match timed out"
	}
	if l.status != "active" {
		return http.StatusConflict, "leg_finished"
	}
	if s.faults.BumpRevision > 0 {
		s.faults.BumpRevision--
		l.revision++
		s.broadcastLocked(fm)
	}
	if rec.Revision != l.revision {
		return http.StatusConflict, "stale_revision"
	}
	if colorOf(l, s.botParticipant(fm)) != l.g.Turn {
		return http.StatusConflict, "not_your_turn"
	}
	mv, err := parseMove(req["move"], fm.mode.Size())
	if err != nil {
		return http.StatusConflict, err.Error()
	}
	legal := l.g.LegalMoves()
	if mv == othello.Pass {
		if len(legal) > 0 || fm.human {
			return http.StatusConflict, "illegal_move"
		}
	} else if !slices.Contains(legal, mv) {
		return http.StatusConflict, "illegal_move"
	}
	if s.faults.RejectIllegal > 0 {
		s.faults.RejectIllegal--
		if s.faults.HideRefused && mv != othello.Pass {
			l.hidden, l.hiddenRev = mv+1, l.revision
		}
		return http.StatusConflict, "illegal_move"
	}
	rec.Charged = s.applyLocked(fm, l, mv)
	s.autoMovesLocked(fm)
	s.broadcastLocked(fm)
	if s.faults.LoseMoveAnswer > 0 {
		s.faults.LoseMoveAnswer--
		return http.StatusBadGateway, "bad gateway"
	}
	return http.StatusOK, ""
}

// parseMove reads a move as agent_move documents it: -1..99, "d3", "D3",
// "pass", "PA", "PS", "--".
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
	switch strings.ToLower(str) {
	case "pass", "pa", "ps", "--":
		return othello.Pass, nil
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
