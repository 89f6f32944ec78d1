package referee

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
)

// The arena's two questions to a bot, asked and judged as the referee's
// games ask and judge them; gamebot play's battleship table (a person
// against a bot) asks its bot the same way.

// CallFunc is one exchange with a bot: the arena's message in, the raw
// answer out.
type CallFunc func(ctx context.Context, body []byte) ([]byte, error)

// Remote is the call of the bot server at url exactly as the arena makes
// it: a POST of the message with the arena's headers, one time limit on
// the whole exchange (timeout ≤ 0: ArenaTimeout), redirects not followed,
// the answer read whatever its status.
func Remote(url string, timeout time.Duration) CallFunc {
	if timeout <= 0 {
		timeout = ArenaTimeout
	}
	return newHTTPPlayer(url, url, timeout).call
}

// RemoteVia is Remote connecting through dial only (a table's bot URL,
// internal/table.BotHosts); redirects are never followed either way.
func RemoteVia(url string, timeout time.Duration, dial func(ctx context.Context, network, addr string) (net.Conn, error)) CallFunc {
	if timeout <= 0 {
		timeout = ArenaTimeout
	}
	p := newHTTPPlayer(url, url, timeout)
	p.client.Transport = &http.Transport{DialContext: dial, Proxy: nil, MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second}
	return p.call
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
func AskFleet(ctx context.Context, call CallFunc, gameID, seat int, r battleship.Rules, opponent string) ([]battleship.Ship, error) {
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
// records it, a valid shot at the fleet at. Any error loses the game on
// the arena, as AskFleet's do.
func AskShot(ctx context.Context, call CallFunc, gameID, seat int, r battleship.Rules, opponent string, yours, his []wire.Strike, at *battleship.Arena) (string, error) {
	body, _ := json.Marshal(wire.NewTurn(gameID, seat, r, opponent, yours, his))
	out, err := call(ctx, body)
	if err != nil {
		return "", err
	}
	raw, err := wire.AnswerField(out, "play")
	if err != nil {
		return "", err
	}
	return wire.ArenaPlay(at, r, raw)
}
