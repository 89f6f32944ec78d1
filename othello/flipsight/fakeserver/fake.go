// Package fakeserver is an in-memory FlipSight server for tests: the agent
// API (agent_poll, agent_accept, agent_reject, agent_challenge, agent_move)
// with its error table, the NDJSON event stream, two-leg bot matches against
// a built-in opponent, human games, clocks with adjudication, and fault
// injection (status codes, lost answers, stale revisions, refused moves,
// stream drops).
//
// Every reply is built from the documentation's own examples (docs/),
// filled in with the game's state: field names, nesting and value types
// are the documentation's, not the connector's. The package deliberately
// shares no type with the connector, so the two cannot agree on a
// misreading. Quirks vary what a real server may vary within the
// documented types (clocks that are not whole milliseconds, ids sent as
// strings).
package fakeserver

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/othello"
)

//go:embed docs/*.json docs/*.ndjson
var docs embed.FS

// Doc returns one of the documentation's examples verbatim (agent_poll.json,
// agent_accept.json, agent_move.json, bot-stream.ndjson, error.json, …).
func Doc(name string) []byte {
	b, err := docs.ReadFile("docs/" + name)
	if err != nil {
		panic(err)
	}
	return b
}

// tpl decodes a documented example into generic JSON, numbers kept as
// written.
func tpl(name string) map[string]any {
	dec := json.NewDecoder(bytes.NewReader(Doc(name)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		panic(fmt.Sprintf("docs/%s: %v", name, err))
	}
	return m
}

// Quirks vary the replies within the documented types.
type Quirks struct {
	FloatClocks bool // clocks_ms and turn_started_ms keep sub-millisecond parts (59638.25)
	StringIDs   bool // match ids, bot ids and revisions as JSON strings
}

// Faults are injected failures, each consumed once per use.
type Faults struct {
	PollStatus     []int // statuses for the next agent_poll calls (e.g. 503)
	MoveStatus     []int // statuses for the next agent_move calls, not applied (e.g. 503)
	LoseMoveAnswer int   // apply the next N moves but answer 502
	BumpRevision   int   // before the next N moves, change the leg's revision (→ stale_revision)
	RejectIllegal  int   // refuse the next N (legal) moves with 409 illegal_move
	HideRefused    bool  // with RejectIllegal: leave the refused move out of legal_moves at that revision
	StreamStatus   []int // statuses for the next stream connections (e.g. 429)
	StreamDrop     int   // end the next N streams right after hello
}

// Env is one environment report received with agent_poll.
type Env struct {
	CPU      string `json:"cpu"`
	OS       string `json:"os"`
	Engine   string `json:"engine"`
	Practice bool   `json:"practice"`
}

// MoveRecord is one agent_move call.
type MoveRecord struct {
	Match    int64
	Leg      int
	Revision int64
	Move     any
	Status   int
	Error    string
	RoundNo  json.RawMessage // as received (nil when absent)
	RoomAt   json.RawMessage
	At       time.Time
	// Charged is the clock the move's turn used (accepted moves only).
	Charged time.Duration
}

// MatchView is a match as the tests look at it.
type MatchView struct {
	ID     int64
	Status string
	Legs   []LegView
	Totals [2]int
}

// LegView is one leg of a MatchView.
type LegView struct {
	Status   string
	Revision int64
	ClocksMs [2]float64
}

// Server is the fake. Configure the exported fields before serving.
type Server struct {
	Token    string
	BotID    int64 // the connector's bot (2, "MyBot", in the documentation)
	OppID    int64 // the built-in opponent (1, "Opponent")
	ClockMs  int64 // per leg per colour (60 000)
	MaxBody  int64
	MaxConns int // event streams per bot (3)
	Ping     time.Duration
	Quirks   Quirks
	// PollDelay holds each agent_poll answer this long after its state
	// was taken, as a slow link would (the state is then older than the
	// stream's events).
	PollDelay time.Duration

	mu      sync.Mutex
	rng     *rand.Rand
	nextID  int64
	matches map[int64]*fmatch
	order   []int64
	streams int
	subs    map[chan []byte]bool
	faults  Faults
	// Records, for assertions.
	moves       []MoveRecord
	polls       []time.Time
	envs        []Env
	accepts     []int64
	streamTimes []time.Time
}

type hist struct {
	color, participant, move int
	at                       float64
}

type fleg struct {
	g           *othello.State
	black       int        // participant playing black
	clocks      [2]float64 // ms left, black then white, at turnStarted
	turnStarted float64    // server ms
	revision    int64
	history     []hist
	status      string // active, finished, timeout
	resultDiscs []int
	finished    float64
	hidden      int   // a refused move left out of legal_moves …
	hiddenRev   int64 // … at this revision (HideRefused)
}

type fmatch struct {
	id          int64
	botA, botB  int64
	mode        othello.Mode
	status      string
	human       bool
	room        int64
	round       int64
	roomCreated string
	expires     float64
	started     float64
	finished    float64
	revision    int64
	reason      string
	legs        []*fleg
}

// New returns a fake server with the platform's defaults.
func New(seed uint64) *Server {
	return &Server{
		Token: "fsbm_test", BotID: 2, OppID: 1, ClockMs: 60000, MaxBody: 64 << 10, MaxConns: 3, Ping: 10 * time.Second,
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
func (s *Server) Envs() []Env {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.envs)
}

// Accepts returns the match ids accepted so far.
func (s *Server) Accepts() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.accepts)
}

// StreamConnections counts stream connections accepted so far.
func (s *Server) StreamConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.streamTimes)
}

// StreamTimes returns when each accepted stream connection started.
func (s *Server) StreamTimes() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.streamTimes)
}

// Match returns a view of a match.
func (s *Server) Match(id int64) (MatchView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fm, ok := s.matches[id]
	if !ok {
		return MatchView{}, false
	}
	s.refreshLocked(fm)
	v := MatchView{ID: fm.id, Status: fm.status, Totals: s.totalsLocked(fm)}
	for _, l := range fm.legs {
		v.Legs = append(v.Legs, LegView{Status: l.status, Revision: l.revision, ClocksMs: l.clocks})
	}
	return v, true
}

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

// ---- rendering, from the documentation's examples ----

func (s *Server) id(v int64) any {
	if s.Quirks.StringIDs {
		return strconv.FormatInt(v, 10)
	}
	return json.Number(strconv.FormatInt(v, 10))
}

func (s *Server) ms(v float64) any {
	if s.Quirks.FloatClocks {
		return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
	}
	return json.Number(strconv.FormatInt(int64(v), 10))
}

func ints(v []int) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = json.Number(strconv.Itoa(x))
	}
	return out
}

func orNull(v float64, set bool) any {
	if !set {
		return nil
	}
	return json.Number(strconv.FormatInt(int64(v), 10))
}

// renderLocked is the match object of the documentation's agent_poll
// example, filled in with fm.
func (s *Server) renderLocked(fm *fmatch) map[string]any {
	m := tpl("agent_poll.json")["matches"].([]any)[0].(map[string]any)
	st := m["state"].(map[string]any)
	legTpl := st["legs"].([]any)[0].(map[string]any)
	m["id"], m["bot_a"], m["bot_b"] = s.id(fm.id), s.id(fm.botA), s.id(fm.botB)
	m["game_mode"], m["status"] = fm.mode.String(), fm.status
	m["time_limit_sec"] = json.Number(strconv.FormatInt(s.ClockMs/1000, 10))
	m["expires_ms"] = json.Number(strconv.FormatInt(int64(fm.expires), 10))
	if fm.human {
		m["kind"], m["room_id"] = "human", json.Number(strconv.FormatInt(fm.room, 10))
		m["round_no"], m["room_created_at"] = json.Number(strconv.FormatInt(fm.round, 10)), fm.roomCreated
		m["ranked"] = false
	}
	st["game_mode"], st["time_limit_sec"] = fm.mode.String(), m["time_limit_sec"]
	st["status"] = map[string]string{"pending": "active", "running": "active", "finished": "finished"}[fm.status]
	if st["status"] == "" {
		st["status"] = "aborted"
	}
	st["revision"] = s.id(fm.revision)
	st["started_ms"] = orNull(fm.started, fm.started > 0)
	st["last_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	st["finished_ms"] = orNull(fm.finished, fm.finished > 0)
	st["board_size"] = json.Number(strconv.Itoa(fm.mode.Size()))
	blocked := fm.mode.Blocked()
	if blocked == nil {
		blocked = []int{}
	}
	st["blocked_squares"] = ints(blocked)
	st["finish_reason"] = nil
	st["winner"] = nil
	totals := s.totalsLocked(fm)
	st["totals"] = ints(totals[:])
	if fm.status == "finished" {
		st["finish_reason"] = fm.reason
		a, b := totals[0], totals[1]
		if fm.mode == othello.Anti {
			a, b = b, a
		}
		switch {
		case a > b:
			st["winner"] = json.Number("0")
		case b > a:
			st["winner"] = json.Number("1")
		}
	}
	var legs []any
	for _, l := range fm.legs {
		lj := map[string]any{}
		for k, v := range legTpl {
			lj[k] = v
		}
		board := make([]int, len(l.g.Cells))
		for i, v := range l.g.Cells {
			board[i] = int(v)
		}
		lj["board"] = ints(board)
		lj["turn"] = json.Number(strconv.Itoa(l.g.Turn))
		lj["black_participant"] = json.Number(strconv.Itoa(l.black))
		lj["placed"] = map[string]any{"1": json.Number(strconv.Itoa(l.g.Placed[0])), "2": json.Number(strconv.Itoa(l.g.Placed[1]))}
		lj["clocks_ms"] = []any{s.ms(l.clocks[0]), s.ms(l.clocks[1])}
		lj["turn_started_ms"] = s.ms(l.turnStarted)
		lj["revision"] = s.id(l.revision)
		var h []any
		for _, e := range l.history {
			h = append(h, map[string]any{"color": e.color, "participant": e.participant, "move": e.move, "at_ms": int64(e.at)})
		}
		if h == nil {
			h = []any{}
		}
		lj["history"] = h
		lj["status"] = l.status
		b, w := l.g.Discs()
		lj["discs"] = ints([]int{b, w})
		lj["finished_ms"] = orNull(l.finished, l.finished > 0)
		legal := []int{}
		if l.status == "active" && fm.status == "running" {
			if lm := l.g.LegalMoves(); lm != nil {
				legal = lm
			}
			if l.hiddenRev == l.revision && l.hidden != 0 {
				legal = slices.DeleteFunc(slices.Clone(legal), func(m int) bool { return m == l.hidden-1 })
			}
		}
		lj["legal_moves"] = ints(legal)
		delete(lj, "result_discs")
		if l.resultDiscs != nil {
			lj["result_discs"] = ints(l.resultDiscs)
		}
		legs = append(legs, lj)
	}
	st["legs"] = legs
	if fm.status == "pending" {
		st["started_ms"] = nil
	}
	return m
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

// broadcastLocked sends a match event to every stream: the full match for
// bot pairs, only id, kind and room_id for human games (as documented).
func (s *Server) broadcastLocked(fm *fmatch) {
	var ev map[string]any
	if fm.human {
		ev = map[string]any{"type": "match", "match": map[string]any{"id": fm.id, "kind": "human", "room_id": fm.room}}
	} else {
		ev = map[string]any{"type": "match", "match": s.renderLocked(fm)}
	}
	ev["server_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
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
	s.streamTimes = append(s.streamTimes, time.Now())
	ch := make(chan []byte, 256)
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
	// hello, as the documentation's first event line, with our bot id.
	var hello map[string]any
	dec := json.NewDecoder(bytes.NewReader(Doc("bot-stream.ndjson")))
	dec.UseNumber()
	_ = dec.Decode(&hello)
	hello["bot_id"], hello["server_now_ms"] = s.id(s.BotID), json.Number(strconv.FormatInt(int64(nowMs()), 10))
	hb, _ := json.Marshal(hello)
	if !write(append(hb, '\n')) || drop {
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
			p, _ := json.Marshal(map[string]any{"type": "ping", "server_now_ms": int64(nowMs())})
			if !write(append(p, '\n')) {
				return
			}
		}
	}
}
