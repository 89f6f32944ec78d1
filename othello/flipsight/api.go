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

// Bot is a bot as the API lists it (fields the connector needs).
type Bot struct {
	ID             int64    `json:"id"`
	Name           string   `json:"name"`
	SupportedGames []string `json:"supported_games"`
	Online         bool     `json:"online"`
	IsBuiltin      bool     `json:"is_builtin"`
}

// Placed is the per-colour placement count ({"1": n, "2": n}).
type Placed map[string]int

// HistoryEntry is one move of a leg.
type HistoryEntry struct {
	Color       int   `json:"color"`
	Participant int   `json:"participant"`
	Move        int   `json:"move"`
	AtMs        int64 `json:"at_ms"`
}

// Leg is one board of a match.
type Leg struct {
	Board            []int          `json:"board"`
	Turn             int            `json:"turn"`
	BlackParticipant int            `json:"black_participant"`
	Placed           Placed         `json:"placed"`
	ClocksMs         []int64        `json:"clocks_ms"`
	TurnStartedMs    int64          `json:"turn_started_ms"`
	Revision         int64          `json:"revision"`
	History          []HistoryEntry `json:"history"`
	Status           string         `json:"status"`
	Discs            []int          `json:"discs"`
	FinishedMs       *int64         `json:"finished_ms"`
	LegalMoves       []int          `json:"legal_moves"`
	ResultDiscs      []int          `json:"result_discs,omitempty"`
}

// State is a match's game state.
type State struct {
	Version        int     `json:"version"`
	GameMode       string  `json:"game_mode"`
	TimeLimitSec   int     `json:"time_limit_sec"`
	Status         string  `json:"status"`
	Revision       int64   `json:"revision"`
	StartedMs      int64   `json:"started_ms"`
	LastNowMs      int64   `json:"last_now_ms"`
	FinishedMs     *int64  `json:"finished_ms"`
	OpeningMoves   []int   `json:"opening_moves"`
	Legs           []Leg   `json:"legs"`
	Totals         []int   `json:"totals"`
	Winner         *int    `json:"winner"`
	FinishReason   *string `json:"finish_reason"`
	BoardSize      int     `json:"board_size"`
	BlockedSquares []int   `json:"blocked_squares"`
}

// Match is a match object (agent_poll matches[], stream match events).
type Match struct {
	ID            int64   `json:"id"`
	Kind          string  `json:"kind,omitempty"`
	BotA          int64   `json:"bot_a"`
	BotB          int64   `json:"bot_b"`
	GameMode      string  `json:"game_mode"`
	TimeLimitSec  int     `json:"time_limit_sec"`
	Status        string  `json:"status"`
	State         *State  `json:"state"`
	Auto          bool    `json:"auto"`
	ExpiresMs     int64   `json:"expires_ms"`
	Ranked        bool    `json:"ranked"`
	CreatedAt     any     `json:"created_at,omitempty"`
	RoomID        int64   `json:"room_id,omitempty"`
	RoundNo       *int64  `json:"round_no,omitempty"`
	RoomCreatedAt *string `json:"room_created_at,omitempty"`
}

// IsHuman reports a game against a person (negative id or kind "human").
func (m *Match) IsHuman() bool { return m.ID < 0 || m.Kind == "human" }

// PollReply is agent_poll's answer.
type PollReply struct {
	OK          bool    `json:"ok"`
	Bots        []Bot   `json:"bots"`
	RecordBots  []Bot   `json:"record_bots"`
	Matches     []Match `json:"matches"`
	Me          int64   `json:"me"`
	Bot         Bot     `json:"bot"`
	ServerNowMs int64   `json:"server_now_ms"`
}

// MoveParams are agent_move's parameters.
type MoveParams struct {
	Action        string  `json:"action"`
	MatchID       int64   `json:"match_id"`
	Leg           int     `json:"leg"`
	Revision      int64   `json:"revision"`
	Move          int     `json:"move"`
	RoundNo       *int64  `json:"round_no,omitempty"`
	RoomCreatedAt *string `json:"room_created_at,omitempty"`
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
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
	}
	_ = json.Unmarshal(data, &env)
	if resp.StatusCode == http.StatusUnauthorized {
		return fmt.Errorf("%w: %w", ErrCredential, &APIError{Status: resp.StatusCode, Msg: env.Error})
	}
	if resp.StatusCode != http.StatusOK || env.OK == nil || !*env.OK {
		msg := env.Error
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

// Poll calls agent_poll.
func (c *Client) Poll(ctx context.Context, env *Environment) (*PollReply, error) {
	var r PollReply
	body := map[string]any{"action": "agent_poll"}
	if env != nil {
		body["environment"] = env
	}
	if err := c.call(ctx, body, &r); err != nil {
		return nil, err
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
		MatchID int64 `json:"match_id"`
	}
	if err := c.call(ctx, body, &r); err != nil {
		return 0, err
	}
	return r.MatchID, nil
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
