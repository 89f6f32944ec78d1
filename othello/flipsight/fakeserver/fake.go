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
	"math/rand/v2"
	"slices"
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
