// Package remote plays a battleship seat against a bot server over HTTP
// exactly as botsarena does (docs/battleship.md §1–3): the arena's two
// messages, posted with its headers and its time limit, and the answers
// judged as it judges them. battleref's HTTP modes and gamebot play's
// table against a bot by URL both play a bot server through it, as
// Giretra's referee and table play theirs through giretra/remote.
package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
)

// ArenaTimeout is the arena's limit on one exchange with a bot.
const ArenaTimeout = 10 * time.Second

// maxAnswer bounds what is read of an answer.
const maxAnswer = 16 << 20

// Call is one exchange with a bot: the arena's message in, the raw answer
// out.
type Call func(ctx context.Context, body []byte) ([]byte, error)

// New is the call of the bot server at url exactly as the arena makes
// it: a POST of the message with the arena's headers, one time limit on
// the whole exchange (timeout ≤ 0: ArenaTimeout), redirects not followed,
// the answer read whatever its status.
func New(url string, timeout time.Duration) Call {
	return newClient(url, timeout).call
}

// Via is New connecting through dial only (a table's bot URL,
// internal/table.BotHosts).
func Via(url string, timeout time.Duration, dial func(ctx context.Context, network, addr string) (net.Conn, error)) Call {
	c := newClient(url, timeout)
	c.http.Transport = &http.Transport{DialContext: dial, Proxy: nil, MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second}
	return c.call
}

type client struct {
	url  string
	http *http.Client
}

func newClient(url string, timeout time.Duration) *client {
	if timeout <= 0 {
		timeout = ArenaTimeout
	}
	return &client{url: url, http: &http.Client{
		Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // the arena does not follow redirects
		},
	}}
}

func (c *client) call(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "*/*")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
}

// Reason says why a bot's exchange or answer failed, in words that quote
// nothing it sent: a timeout, a refused connection, an answer that is
// not what the arena reads. A table shows it to people who did not
// choose what the bot answers.
func Reason(err error) string {
	var ia *wire.InvalidAnswer
	var ne net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ia) && ia.Plain != "":
		return "its answer is not one the arena accepts: " + ia.Plain
	case errors.As(err, &ia):
		return "its answer is not one the arena accepts"
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return "it did not answer in time"
	}
	return "it could not be reached"
}

// AskFleet sends seat's init of game gameID, the other seat named
// opponent as the arena names it, and reads the answer as the arena does.
// Any error loses the game on the arena: the call's own, or a
// *wire.InvalidAnswer.
func AskFleet(ctx context.Context, call Call, gameID, seat int, r battleship.Rules, opponent string) ([]battleship.Ship, error) {
	body, _ := json.Marshal(wire.NewInit(gameID, seat, r, opponent))
	out, err := call(ctx, body)
	if err != nil {
		return nil, err
	}
	raw, err := wire.AnswerField(out, "boats")
	if err != nil {
		return nil, err
	}
	return wire.ArenaBoats(r, raw)
}

// AskShot sends seat's play-turn of game gameID with both histories and
// reads the answer as the arena does: it returns the target as the arena
// records it, a valid shot. Any error loses the game on the arena, as
// AskFleet's do.
func AskShot(ctx context.Context, call Call, gameID, seat int, r battleship.Rules, opponent string, yours, his []wire.Strike) (string, error) {
	body, _ := json.Marshal(wire.NewTurn(gameID, seat, r, opponent, yours, his))
	out, err := call(ctx, body)
	if err != nil {
		return "", err
	}
	raw, err := wire.AnswerField(out, "play")
	if err != nil {
		return "", err
	}
	return wire.ArenaPlay(r, raw)
}

// Seat is a bot behind the arena's messages as a player of
// battleship.Play: asked game GameID's init and play-turns, the other seat
// named Opponent.
type Seat struct {
	Call     Call
	GameID   int
	Opponent string
}

func (s Seat) Place(ctx context.Context, t *battleship.Turn) ([]battleship.Ship, error) {
	return AskFleet(ctx, s.Call, s.GameID, t.Seat, t.Rules, s.Opponent)
}

func (s Seat) Shoot(ctx context.Context, t *battleship.Turn) (string, error) {
	return AskShot(ctx, s.Call, s.GameID, t.Seat, t.Rules, s.Opponent, t.Yours, t.His)
}
