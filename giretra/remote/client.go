// Package remote plays a Giretra seat against a bot server over HTTP
// exactly as the Giretra engine's RemoteBotClient/RemotePlayerAgent do. The
// referee, the load test and the server's end-to-end tests share it.
package remote

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/wire"
)

// The engine's client timeouts (RemoteBotClient.cs): decisions and session
// creation 30 s, notifications and DELETE 5 s. No retries.
const (
	DecisionTimeout = 30 * time.Second
	NotifyTimeout   = 5 * time.Second
	maxAnswerBytes  = 1 << 20
)

// Client talks to one bot server the way the engine's RemoteBotClient
// does: one keep-alive HTTP/1.1 client, JSON bodies with Content-Length and
// "application/json; charset=utf-8", PascalCase enums, nulls omitted.
type Client struct {
	base    string // ends with "/"
	http    *http.Client
	dialect wire.Dialect
	notify  [6]bool // enabled notifications
	matchID string  // one per bot "factory", as the engine does
	// DecisionTimeout bounds decisions and session creation, NotifyTimeout
	// notifications (the engine's 30 s and 5 s by default).
	DecisionTimeout time.Duration
	NotifyTimeout   time.Duration
}

// NewClient returns a client for the bot at baseURL. maxConns bounds the
// idle keep-alive connections kept per host (the concurrency).
func NewClient(baseURL string, d wire.Dialect, notify [6]bool, maxConns int) *Client {
	tr := &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        maxConns * 4,
		MaxIdleConnsPerHost: maxConns * 4,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true, // the engine sends no Accept-Encoding
		ForceAttemptHTTP2:   false,
	}
	return &Client{
		base:            strings.TrimRight(baseURL, "/") + "/",
		http:            &http.Client{Transport: tr},
		dialect:         d,
		notify:          notify,
		matchID:         newGUID(),
		DecisionTimeout: DecisionTimeout,
		NotifyTimeout:   NotifyTimeout,
	}
}

func (b *Client) Close() { b.http.CloseIdleConnections() }

// Restrict makes the client connect through dial only and refuse
// redirects: a table seats a URL a page sent, and must not be led from
// it to another address (internal/table.BotHosts). Call it before the
// first request.
func (b *Client) Restrict(dial func(ctx context.Context, network, addr string) (net.Conn, error)) {
	if tr, ok := b.http.Transport.(*http.Transport); ok {
		tr.DialContext = dial
	}
	b.http.CheckRedirect = func(*http.Request, []*http.Request) error {
		return errors.New("the bot server answered with a redirect, which is not followed")
	}
}

// Reason says why an exchange failed in words that quote nothing the bot
// server sent: its status, a timeout, a refused connection, or an answer
// that cannot be read. A table shows it to people who did not choose
// what the server answers.
func Reason(err error) string {
	var he *HTTPError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrNotOffered):
		return "it chose something that was not offered"
	case errors.As(err, &he) && he.Timeout:
		return "it did not answer in time"
	case errors.As(err, &he) && he.Status != 0:
		return fmt.Sprintf("it answered HTTP %d", he.Status)
	case errors.As(err, &he):
		return "it could not be reached"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "it did not answer in time"
	}
	return "its answer could not be read"
}

// newGUID is a random version-4 UUID in the engine's "D" format.
func newGUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// HTTPError is a failed exchange: transport error, timeout or non-2xx.
type HTTPError struct {
	Path    string
	Status  int // 0 for transport errors and timeouts
	Timeout bool
	Msg     string
}

func (e *HTTPError) Error() string {
	switch {
	case e.Timeout:
		return fmt.Sprintf("request to %s timed out (%s)", e.Path, e.Msg)
	case e.Status != 0:
		return fmt.Sprintf("%s answered HTTP %d: %s", e.Path, e.Status, e.Msg)
	}
	return fmt.Sprintf("request to %s failed: %s", e.Path, e.Msg)
}

// post sends body as JSON to path (relative to the base, the session id
// pasted in unescaped as the engine does) and returns the answer body of a
// 2xx response.
func (b *Client) post(ctx context.Context, path string, body any, timeout time.Duration) ([]byte, error) {
	js, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+path, bytes.NewReader(js))
	if err != nil {
		return nil, &HTTPError{Path: path, Msg: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("User-Agent", "") // .NET's HttpClient sends none
	resp, err := b.http.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, &HTTPError{Path: path, Timeout: true, Msg: "after " + timeout.String()}
		}
		return nil, &HTTPError{Path: path, Msg: err.Error()}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, &HTTPError{Path: path, Timeout: true, Msg: "reading the answer, after " + timeout.String()}
		}
		return nil, &HTTPError{Path: path, Msg: "reading the answer: " + err.Error()}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &HTTPError{Path: path, Status: resp.StatusCode, Msg: snippet(data)}
	}
	return data, nil
}

// snippet shortens an answer for messages.
func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = "(empty body)"
	}
	return s
}

// CreateSession is POST api/sessions for a game session at seat and
// returns its id. seed is sent only when not nil (the engine's seeded
// runs); the seed dialect sends neither it nor the position.
func (b *Client) CreateSession(ctx context.Context, seat giretra.Position, seed *int64) (string, error) {
	body := wire.CreateSession{MatchID: b.matchID}
	if b.dialect == wire.Engine {
		body.Position = seat.String()
		body.Seed = seed
	}
	data, err := b.post(ctx, "api/sessions", body, b.DecisionTimeout)
	if err != nil {
		return "", err
	}
	return wire.SessionAnswer(data)
}

// Seat is one seat of one match played by a bot server, a
// giretra.Player behaving like the engine's RemotePlayerAgent: the session
// is created lazily (first enabled deal-started, else first decision), and
// notifications other than deal-started are skipped until it exists.
type Seat struct {
	bot     *Client
	seat    giretra.Position
	seed    *int64
	session string
	mul     giretra.Multiplier // the deal's multiplier, for the seed dialect
}

func (s *Seat) ensureSession(ctx context.Context) error {
	if s.session != "" {
		return nil
	}
	id, err := s.bot.CreateSession(ctx, s.seat, s.seed)
	if err != nil {
		return fmt.Errorf("creating the session: %w", err)
	}
	s.session = id
	return nil
}

func (s *Seat) path(endpoint string) string {
	return "api/sessions/" + s.session + "/" + endpoint
}

func (s *Seat) decide(ctx context.Context, endpoint string, body any) ([]byte, error) {
	if err := s.ensureSession(ctx); err != nil {
		return nil, err
	}
	return s.bot.post(ctx, s.path(endpoint), body, s.bot.DecisionTimeout)
}

// NewSeat is seat of one match played by the bot behind c. seed, when not
// nil, is sent at session creation (seeded runs).
func NewSeat(c *Client, seat giretra.Position, seed *int64) *Seat {
	return &Seat{bot: c, seat: seat, seed: seed}
}

// ChooseCut asks choose-cut; the range is RunMatch's check.
func (s *Seat) ChooseCut(ctx context.Context, seat giretra.Position, m *giretra.MatchState) (giretra.Cut, error) {
	data, err := s.decide(ctx, "choose-cut", wire.EncodeCut(s.bot.dialect, m))
	if err != nil {
		return giretra.Cut{}, err
	}
	return wire.CutAnswerOf(data)
}

// ChooseAction asks choose-negotiation-action and matches the answer
// against the offered actions as the engine does.
func (s *Seat) ChooseAction(ctx context.Context, v *giretra.BidView) (giretra.Action, error) {
	data, err := s.decide(ctx, "choose-negotiation-action", wire.EncodeBid(s.bot.dialect, v))
	if err != nil {
		return giretra.Action{}, err
	}
	return wire.ActionAnswerOf(data, v.Valid, s.bot.dialect)
}

// ErrNotOffered is an answer outside the offered options.
var ErrNotOffered = errors.New("not among the offered options")

// ChooseCard asks choose-card; a card outside validPlays is an error, as in
// the engine's client.
func (s *Seat) ChooseCard(ctx context.Context, v *giretra.PlayView) (giretra.Card, error) {
	data, err := s.decide(ctx, "choose-card", wire.EncodeCard(s.bot.dialect, v, s.mul))
	if err != nil {
		return giretra.NoCard, err
	}
	c, err := wire.CardAnswerOf(data)
	if err != nil {
		return giretra.NoCard, err
	}
	if !v.Valid.Has(c) {
		return c, fmt.Errorf("card %v %w %v", c, ErrNotOffered, v.Valid)
	}
	return c, nil
}

// WillSend reports whether a notification of kind k goes over the wire.
func (s *Seat) WillSend(k giretra.EventKind) bool {
	if !s.bot.notify[k] {
		return false
	}
	return k == giretra.DealStarted || s.session != ""
}

// Notify posts enabled notifications; every seat sees every event
// in-process, so the seat keeps the deal's multiplier for the seed dialect.
func (s *Seat) Notify(ctx context.Context, seat giretra.Position, e *giretra.Event) error {
	s.mul = e.Multiplier(s.mul)
	if !s.WillSend(e.Kind) {
		return nil
	}
	if e.Kind == giretra.DealStarted {
		if err := s.ensureSession(ctx); err != nil {
			return err
		}
	}
	_, err := s.bot.post(ctx, s.path("notify/"+e.Kind.String()), wire.EncodeEvent(s.bot.dialect, e, s.mul), s.bot.NotifyTimeout)
	return err
}

// SmokeTest is the engine's start-up check: create a session for
// "__smoke_test__" and DELETE it. Only a transport failure is an error.
func SmokeTest(ctx context.Context, base string) error {
	base = strings.TrimRight(base, "/")
	c := &http.Client{Timeout: DecisionTimeout}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/sessions",
		strings.NewReader(`{"position":"Bottom","matchId":"__smoke_test__"}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("health check passed, but POST /api/sessions failed: %w", err)
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	var ans struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(data, &ans) != nil || ans.SessionID == "" {
		return nil
	}
	dctx, cancel := context.WithTimeout(ctx, NotifyTimeout)
	defer cancel()
	if del, err := http.NewRequestWithContext(dctx, http.MethodDelete, base+"/api/sessions/"+ans.SessionID, nil); err == nil {
		if r, err := c.Do(del); err == nil {
			_, _ = io.Copy(io.Discard, r.Body)
			r.Body.Close()
		}
	}
	return nil
}
