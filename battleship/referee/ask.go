package referee

import (
	"context"
	"encoding/json"
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
