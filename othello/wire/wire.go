// Package wire is the Othello edge: the FlipSight engine request (one line
// of the connector's --engine protocol, the body of POST /othello/move, and
// what the native connector and the match runner build), the engine's
// reply, their strict decoding, and the validation that turns a request
// into an othello.Position, and Engine, the one interface of whatever
// answers a request (engine.go). It is declared once here and used by the
// server, the JSON-line engine, the connector and the match runner.
// Problems are reported in the edge's one error model (internal/problem).
package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/botarena/gamebot/othello"
)

var (
	malformed  = problem.Malformedf
	impossible = problem.Impossiblef
)

// Request is one engine request of the FlipSight connector's --engine
// protocol. Fields the engine does not need (match_id, revision, history,
// round_no, room_created_at) are accepted and passed through: a connector
// forwards them to an engine command as it received them.
type Request struct {
	Board          []int           `json:"board"`
	Color          int             `json:"color"`
	LegalMoves     []int           `json:"legal_moves"`
	GameMode       string          `json:"game_mode"`
	BoardSize      int             `json:"board_size"`
	BlockedSquares []int           `json:"blocked_squares"`
	Placed         map[string]int  `json:"placed"`
	RemainingMs    *int64          `json:"remaining_ms"`
	BudgetMs       *int64          `json:"budget_ms"`
	MatchID        int64           `json:"match_id"`
	Leg            int             `json:"leg"`
	Revision       int64           `json:"revision"`
	History        json.RawMessage `json:"history"`
	RoundNo        json.RawMessage `json:"round_no"`        // human games: forwarded as received
	RoomCreatedAt  json.RawMessage `json:"room_created_at"` // human games: forwarded as received

	legalPresent bool
}

// UnmarshalJSON decodes a request and records whether legal_moves was
// present (it is required: without it the answer −1 could be illegal).
func (r *Request) UnmarshalJSON(b []byte) error {
	type plain Request
	var probe struct {
		LegalMoves json.RawMessage `json:"legal_moves"`
	}
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	r.legalPresent = len(probe.LegalMoves) > 0 && !bytes.Equal(probe.LegalMoves, []byte("null"))
	return nil
}

// Reply is the engine's answer: a square index from legal_moves, or −1.
type Reply struct {
	Move int `json:"move"`
}

// ErrorReply is the JSON-line engine's answer to a line that is not a
// valid request (the HTTP endpoint answers {"error"} with a status
// instead): the message and the problem's kind.
type ErrorReply struct {
	Error string `json:"error"`
	Kind  string `json:"kind"`
}

// ParseReply parses an engine's answer line for a board of the given size:
// {"move": 19}, {"move": "d3"}, {"move": -1} or {"move": "pass"}, with
// the engine's "score", "depth" and "exact" when it adds them. Every
// failure is Malformed.
func ParseReply(line []byte, size int) (Answer, error) {
	var r struct {
		Move  json.RawMessage `json:"move"`
		Score *float64        `json:"score"`
		Depth int             `json:"depth"`
		Exact bool            `json:"exact"`
	}
	if err := json.Unmarshal(line, &r); err != nil || len(r.Move) == 0 {
		return Answer{}, malformed("answer %.80q is not {\"move\": …}", line)
	}
	a := Answer{Score: r.Score, Depth: r.Depth, Exact: r.Exact}
	if a.Score != nil && (math.IsNaN(*a.Score) || math.Abs(*a.Score) > float64(size*size)) || a.Depth < 0 {
		return Answer{}, malformed("answer %.80q: score or depth out of range", line)
	}
	var n json.Number
	if err := json.Unmarshal(r.Move, &n); err == nil {
		v, err := strconv.Atoi(n.String())
		if err != nil || v < -1 || v >= size*size {
			return Answer{}, malformed("move %s outside the board", n)
		}
		a.Move = v
		return a, nil
	}
	var s string
	if err := json.Unmarshal(r.Move, &s); err != nil {
		return Answer{}, malformed("move %.40s is neither a number nor a string", r.Move)
	}
	m, err := othello.ParseMove(s, size)
	if err != nil {
		return Answer{}, malformed("%v", err)
	}
	a.Move = m
	return a, nil
}

// Decode decodes one JSON request (a line of the engine protocol or an HTTP
// body). Unknown fields are allowed; trailing data is not. Every failure
// is Malformed.
func Decode(b []byte) (*Request, error) {
	var r Request
	if err := problem.Decode(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Default clock values for requests that omit them (the protocol's own
// defaults: a fresh 60 s clock and the connector's 10 s cap).
const (
	DefaultRemainingMs = 60000
	DefaultBudgetMs    = 10000
)

// Position checks a decoded (or built) request and returns the position to
// search. Missing required fields are Malformed; contradictions (a board of
// the wrong length, a legal move on an occupied square, …) are Impossible.
// A legal_moves list that differs from what the rules compute is not an
// error: the server's list is trusted.
func (r *Request) Position() (*othello.Position, error) {
	mode, err := r.mode()
	if err != nil {
		return nil, err
	}
	st, blocked, err := r.state(mode)
	if err != nil {
		return nil, err
	}
	if err := r.checkLegal(st, blocked); err != nil {
		return nil, err
	}
	p := &othello.Position{State: st, Legal: append([]int(nil), r.LegalMoves...), RemainingMs: DefaultRemainingMs, BudgetMs: DefaultBudgetMs, MatchID: r.MatchID, Leg: r.Leg}
	if r.RemainingMs != nil {
		p.RemainingMs = *r.RemainingMs
	}
	if r.BudgetMs != nil {
		p.BudgetMs = *r.BudgetMs
	}
	return p, nil
}

// mode checks the required fields, and that the board, its size and the
// side to move fit the request's mode.
func (r *Request) mode() (othello.Mode, error) {
	if r.Board == nil {
		return 0, malformed("board is required")
	}
	if r.GameMode == "" {
		return 0, malformed("game_mode is required")
	}
	if !r.legalPresent && r.LegalMoves == nil {
		return 0, malformed("legal_moves is required (use [] when there is no legal move)")
	}
	mode, err := othello.ParseMode(r.GameMode)
	if err != nil {
		return 0, impossible("%v", err)
	}
	size := mode.Size()
	if r.BoardSize != 0 && r.BoardSize != size {
		return 0, impossible("board_size %d does not match game_mode %s (%d)", r.BoardSize, mode, size)
	}
	if len(r.Board) != size*size {
		return 0, impossible("board has %d cells, %s needs %d", len(r.Board), mode, size*size)
	}
	if r.Color != othello.Black && r.Color != othello.White {
		return 0, impossible("color %d: want 1 (black) or 2 (white)", r.Color)
	}
	return mode, nil
}

// state is the position the request states: the board, the side to move
// and the placements, with the mode's blocked squares (by square).
func (r *Request) state(mode othello.Mode) (*othello.State, []bool, error) {
	size := mode.Size()
	blocked := make([]bool, size*size)
	for _, b := range mode.Blocked() {
		blocked[b] = true
	}
	if len(r.BlockedSquares) > 0 {
		got := slices.Sorted(slices.Values(r.BlockedSquares))
		want := slices.Sorted(slices.Values(mode.Blocked()))
		if !slices.Equal(got, want) {
			return nil, nil, impossible("blocked_squares %v do not match game_mode %s", r.BlockedSquares, mode)
		}
	}
	st := &othello.State{Mode: mode, Cells: make([]int8, size*size), Turn: r.Color}
	for i, c := range r.Board {
		if c < 0 || c > 2 {
			return nil, nil, impossible("board[%d] = %d: want 0, 1 or 2", i, c)
		}
		if c != 0 && blocked[i] {
			return nil, nil, impossible("board[%d] holds a disc on a blocked square", i)
		}
		st.Cells[i] = int8(c)
	}
	for k, v := range r.Placed {
		n, err := strconv.Atoi(k)
		if err != nil || (n != othello.Black && n != othello.White) {
			return nil, nil, impossible("placed has key %q: want \"1\" and \"2\"", k)
		}
		if v < 0 || v > mode.Squares() {
			return nil, nil, impossible("placed[%q] = %d out of range", k, v)
		}
		st.Placed[n-1] = v
	}
	b, w := st.Discs()
	if _, ok := r.Placed["1"]; !ok && mode == othello.Reversi {
		// Without counts, split the discs on the board evenly.
		st.Placed = [2]int{(b + w + 1) / 2, (b + w) / 2}
	}
	if mode == othello.Reversi && st.Placed[0]+st.Placed[1] != b+w {
		return nil, nil, impossible("placed %d+%d does not match the %d discs on the board", st.Placed[0], st.Placed[1], b+w)
	}
	return st, blocked, nil
}

// checkLegal checks the legal moves against the board: on it, each once,
// on an empty square that is not blocked (that the rules allow them is
// not asked: the server's list is trusted).
func (r *Request) checkLegal(st *othello.State, blocked []bool) error {
	size := st.Mode.Size()
	seen := make([]bool, size*size)
	for _, m := range r.LegalMoves {
		if m < 0 || m >= size*size {
			return impossible("legal move %d outside the %dx%d board", m, size, size)
		}
		if seen[m] {
			return impossible("legal move %d listed twice", m)
		}
		seen[m] = true
		if blocked[m] {
			return impossible("legal move %d is a blocked square", m)
		}
		if st.Cells[m] != othello.Empty {
			return impossible("legal move %d is an occupied square", m)
		}
	}
	return nil
}
