package othello

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Request errors: ErrMalformed for input that is not a well-formed request
// (HTTP 400), ErrImpossible for a well-formed request describing a
// position or move list that cannot exist (HTTP 422).
var (
	ErrMalformed  = errors.New("malformed request")
	ErrImpossible = errors.New("impossible request")
)

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func impossible(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrImpossible, fmt.Sprintf(format, args...))
}

// Request is one engine request of the FlipSight connector's --engine
// protocol (also the body of POST /othello/move). Fields the engine does not
// need (match_id, leg, revision, history, round_no, room_created_at) are
// accepted and ignored.
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

// DecodeRequest decodes one JSON request (a line of the engine protocol).
// Unknown fields are allowed; trailing data is not. Errors wrap ErrMalformed.
func DecodeRequest(b []byte) (*Request, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, malformed("empty request: a JSON object is required")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var r Request
	if err := dec.Decode(&r); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			field := ute.Field
			if field == "" {
				field = "request"
			}
			return nil, malformed("%s must be %s, not %s", field, ute.Type, ute.Value)
		}
		return nil, malformed("%v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, malformed("trailing data after the JSON object")
	}
	return &r, nil
}

// Position is a validated request: the state to search and the moves the
// server allows.
type Position struct {
	State       *State
	Legal       []int
	RemainingMs int64
	BudgetMs    int64
	MatchID     int64 // with Leg and the colour: whose clock this is
	Leg         int
}

// Default clock values for requests that omit them (the protocol's own
// defaults: a fresh 60 s clock and the connector's 10 s cap).
const (
	DefaultRemainingMs = 60000
	DefaultBudgetMs    = 10000
)

// Validate checks a decoded request. Missing required fields are
// ErrMalformed; contradictions (a board of the wrong length, a legal move on
// an occupied square, …) are ErrImpossible. A legal_moves list that differs
// from what this package's rules compute is not an error: the server's list
// is trusted.
func (r *Request) Validate() (*Position, error) {
	if r.Board == nil {
		return nil, malformed("board is required")
	}
	if r.GameMode == "" {
		return nil, malformed("game_mode is required")
	}
	if !r.legalPresent && r.LegalMoves == nil {
		return nil, malformed("legal_moves is required (use [] when there is no legal move)")
	}
	mode, err := ParseMode(r.GameMode)
	if err != nil {
		return nil, impossible("%v", err)
	}
	size := mode.Size()
	if r.BoardSize != 0 && r.BoardSize != size {
		return nil, impossible("board_size %d does not match game_mode %s (%d)", r.BoardSize, mode, size)
	}
	if len(r.Board) != size*size {
		return nil, impossible("board has %d cells, %s needs %d", len(r.Board), mode, size*size)
	}
	if r.Color != Black && r.Color != White {
		return nil, impossible("color %d: want 1 (black) or 2 (white)", r.Color)
	}
	blocked := make([]bool, size*size)
	for _, b := range mode.Blocked() {
		blocked[b] = true
	}
	if len(r.BlockedSquares) > 0 {
		got := slices.Sorted(slices.Values(r.BlockedSquares))
		want := slices.Sorted(slices.Values(mode.Blocked()))
		if !slices.Equal(got, want) {
			return nil, impossible("blocked_squares %v do not match game_mode %s", r.BlockedSquares, mode)
		}
	}
	st := &State{Mode: mode, Cells: make([]int8, size*size), Turn: r.Color}
	for i, c := range r.Board {
		if c < 0 || c > 2 {
			return nil, impossible("board[%d] = %d: want 0, 1 or 2", i, c)
		}
		if c != 0 && blocked[i] {
			return nil, impossible("board[%d] holds a disc on a blocked square", i)
		}
		st.Cells[i] = int8(c)
	}
	for k, v := range r.Placed {
		n, err := strconv.Atoi(k)
		if err != nil || (n != Black && n != White) {
			return nil, impossible("placed has key %q: want \"1\" and \"2\"", k)
		}
		if v < 0 || v > mode.Squares() {
			return nil, impossible("placed[%q] = %d out of range", k, v)
		}
		st.Placed[n-1] = v
	}
	b, w := st.Discs()
	if _, ok := r.Placed["1"]; !ok && mode == Reversi {
		// Without counts, split the discs on the board evenly.
		st.Placed = [2]int{(b + w + 1) / 2, (b + w) / 2}
	}
	if mode == Reversi && st.Placed[0]+st.Placed[1] != b+w {
		return nil, impossible("placed %d+%d does not match the %d discs on the board", st.Placed[0], st.Placed[1], b+w)
	}
	seen := make([]bool, size*size)
	for _, m := range r.LegalMoves {
		if m < 0 || m >= size*size {
			return nil, impossible("legal move %d outside the %dx%d board", m, size, size)
		}
		if seen[m] {
			return nil, impossible("legal move %d listed twice", m)
		}
		seen[m] = true
		if blocked[m] {
			return nil, impossible("legal move %d is a blocked square", m)
		}
		if st.Cells[m] != Empty {
			return nil, impossible("legal move %d is an occupied square", m)
		}
	}
	p := &Position{State: st, Legal: append([]int(nil), r.LegalMoves...), RemainingMs: DefaultRemainingMs, BudgetMs: DefaultBudgetMs, MatchID: r.MatchID, Leg: r.Leg}
	if r.RemainingMs != nil {
		p.RemainingMs = *r.RemainingMs
	}
	if r.BudgetMs != nil {
		p.BudgetMs = *r.BudgetMs
	}
	return p, nil
}
