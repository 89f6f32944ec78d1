// Package flipsight is a client for the FlipSight (othelloclub.com) bot
// agent API and the connector logic built on it: the event stream with poll
// fallback, accepting challenges, playing both legs of a match at once with
// exactly one submission per (match, leg, revision), passes, human games,
// and the error policy of the API (401 stops, 409 re-polls, 429/503 and
// network errors back off).
package flipsight

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Default endpoints of the real platform.
const (
	DefaultAPI    = "https://othelloclub.com/flipsight/bot_match_api.php"
	DefaultStream = "https://othelloclub.com/flipsight_api/bot-stream"
)

// Environment is the optional report sent with agent_poll.
type Environment struct {
	CPU      string `json:"cpu,omitempty"`
	OS       string `json:"os,omitempty"`
	Engine   string `json:"engine,omitempty"`
	Practice bool   `json:"practice"`
}

// The reply types below hold the fields the connector relies on, each
// typed as loosely as the documentation allows (see lenient.go); every
// other field of the documented replies is ignored, as are fields a server
// adds later.

// Bot is a bot as agent_poll lists it.
type Bot struct {
	ID             Int      `json:"id"`
	Name           Text     `json:"name"`
	SupportedGames []string `json:"supported_games"`
	Online         bool     `json:"online"`
	IsBuiltin      bool     `json:"is_builtin"`
}

// Leg is one board of a match.
type Leg struct {
	Board            Ints            `json:"board"`
	Turn             Int             `json:"turn"`
	BlackParticipant Int             `json:"black_participant"`
	Placed           Placed          `json:"placed"`
	ClocksMs         []Float         `json:"clocks_ms"` // [number, number]: baselines, black then white
	TurnStartedMs    Float           `json:"turn_started_ms"`
	Revision         Int             `json:"revision"`
	History          json.RawMessage `json:"history"` // forwarded to --engine commands as sent
	Status           Text            `json:"status"`
	Discs            Ints            `json:"discs"`
	LegalMoves       Ints            `json:"legal_moves"` // nil when absent or null
	ResultDiscs      Ints            `json:"result_discs"`
}

// State is a match's game state.
type State struct {
	GameMode       Text  `json:"game_mode"`
	Status         Text  `json:"status"`
	Legs           []Leg `json:"legs"`
	Totals         Ints  `json:"totals"`
	Winner         *Int  `json:"winner"` // null: a draw (or not over)
	FinishReason   Text  `json:"finish_reason"`
	BoardSize      Int   `json:"board_size"`
	BlockedSquares Ints  `json:"blocked_squares"`
}

// Match is a match object (agent_poll matches[], stream match events).
// Human games carry round_no and room_created_at, which agent_move must
// echo exactly as received: they are kept as raw JSON.
type Match struct {
	ID            Int             `json:"id"`
	Kind          Text            `json:"kind"`
	BotA          Int             `json:"bot_a"`
	BotB          Int             `json:"bot_b"`
	GameMode      Text            `json:"game_mode"`
	Status        Text            `json:"status"`
	State         *State          `json:"state"`
	ExpiresMs     Float           `json:"expires_ms"`
	RoomID        Int             `json:"room_id"`
	RoundNo       json.RawMessage `json:"round_no"`
	RoomCreatedAt json.RawMessage `json:"room_created_at"`
}

// IsHuman reports a game against a person (negative id or kind "human").
func (m *Match) IsHuman() bool { return m.ID < 0 || m.Kind == "human" }

// PollReply is agent_poll's answer. Me is the owner's id, a string in the
// documentation ("example"): the connector knows itself by Bot.ID.
type PollReply struct {
	OK          bool    `json:"ok"`
	Bots        []Bot   `json:"bots"`
	Matches     []Match `json:"matches"`
	Me          Text    `json:"me"`
	Bot         Bot     `json:"bot"`
	ServerNowMs Float   `json:"server_now_ms"`

	Skipped []error `json:"-"` // match objects that could not be read
}

// Event is one line of the event stream: hello (with bot_id), match (bot
// pairs carry the full match object, human games only id, kind, room_id)
// or ping.
type Event struct {
	Type        Text   `json:"type"`
	BotID       Int    `json:"bot_id"`
	Match       *Match `json:"match"`
	ServerNowMs Float  `json:"server_now_ms"`
}

// MoveParams are agent_move's parameters. RoundNo and RoomCreatedAt are
// sent only for human games, exactly as the match object carried them.
type MoveParams struct {
	Action        string          `json:"action"`
	MatchID       int64           `json:"match_id"`
	Leg           int             `json:"leg"`
	Revision      int64           `json:"revision"`
	Move          int             `json:"move"`
	RoundNo       json.RawMessage `json:"round_no,omitempty"`
	RoomCreatedAt json.RawMessage `json:"room_created_at,omitempty"`
}

// APIError is an error answer of the API.
type APIError struct {
	Status int
	Msg    string
}

func (e *APIError) Error() string { return fmt.Sprintf("FlipSight API %d: %s", e.Status, e.Msg) }

// ErrCredential is returned when the server rejects the token (401).
var ErrCredential = errors.New("bot credential rejected")

// Client calls the agent API.
type Client struct {
	HTTP   *http.Client
	API    string
	Stream string
	Token  string
}

// maxReply bounds an API answer.
const maxReply = 8 << 20

// call posts {"action": …, params…} and decodes the answer into out.
func (c *Client) call(ctx context.Context, body any, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.API, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return err
	}
	var env struct {
		OK    *bool           `json:"ok"`
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(data, &env)
	msg := ""
	if len(env.Error) > 0 {
		var t Text
		_ = json.Unmarshal(env.Error, &t)
		msg = string(t)
	}
	if resp.StatusCode == http.StatusUnauthorized {
		return fmt.Errorf("%w: %w", ErrCredential, &APIError{Status: resp.StatusCode, Msg: msg})
	}
	// Success is a 200 whose ok is true, or absent without an error.
	failed := (env.OK != nil && !*env.OK) || (env.OK == nil && msg != "")
	if resp.StatusCode != http.StatusOK || failed {
		if msg == "" {
			msg = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
		status := resp.StatusCode
		if status == http.StatusOK {
			status = 0 // ok:false with 200: treat as a server-side failure
		}
		return &APIError{Status: status, Msg: msg}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("decoding %T: %w", out, err)
		}
	}
	return nil
}

// Poll calls agent_poll. A match object that cannot be read is left out
// (and reported in Skipped) rather than failing the whole poll: one odd
// record must not stop play in the other matches.
func (c *Client) Poll(ctx context.Context, env *Environment) (*PollReply, error) {
	body := map[string]any{"action": "agent_poll"}
	if env != nil {
		body["environment"] = env
	}
	var raw struct {
		PollReply
		Matches []json.RawMessage `json:"matches"`
	}
	if err := c.call(ctx, body, &raw); err != nil {
		return nil, err
	}
	r := raw.PollReply
	r.Matches = make([]Match, 0, len(raw.Matches))
	for i, b := range raw.Matches {
		var m Match
		if err := json.Unmarshal(b, &m); err != nil {
			r.Skipped = append(r.Skipped, fmt.Errorf("matches[%d]: %w", i, err))
			continue
		}
		r.Matches = append(r.Matches, m)
	}
	return &r, nil
}

// Accept calls agent_accept.
func (c *Client) Accept(ctx context.Context, matchID int64) error {
	return c.call(ctx, map[string]any{"action": "agent_accept", "match_id": matchID}, nil)
}

// Reject calls agent_reject.
func (c *Client) Reject(ctx context.Context, matchID int64) error {
	return c.call(ctx, map[string]any{"action": "agent_reject", "match_id": matchID}, nil)
}

// Challenge calls agent_challenge by bot name or id.
func (c *Client) Challenge(ctx context.Context, target string, gameMode string) (int64, error) {
	body := map[string]any{"action": "agent_challenge", "game_mode": gameMode}
	if id, err := strconv.ParseInt(target, 10, 64); err == nil && id >= 1 {
		body["target_id"] = id
	} else {
		body["target_name"] = target
	}
	var r struct {
		MatchID Int `json:"match_id"`
	}
	if err := c.call(ctx, body, &r); err != nil {
		return 0, err
	}
	return int64(r.MatchID), nil
}

// Move calls agent_move.
func (c *Client) Move(ctx context.Context, p MoveParams) error {
	p.Action = "agent_move"
	return c.call(ctx, p, nil)
}

// StatusOf returns the HTTP status of an API error (0 for network errors).
func StatusOf(err error) int {
	var e *APIError
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}
