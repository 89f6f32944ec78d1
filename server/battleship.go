package server

import (
	"context"
	"net/http"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/internal/problem"
)

// battleship serves botsarena's protocol on one POST route: it routes on
// "action" (init, play-turn; "game" is ignored because the arena spells it
// differently per action) and answers anything else with a harmless JSON
// object.
//
// Errors keep the arena playing when that is possible: a play-turn whose
// board cannot be read is answered with its 4xx status and a body that
// carries both the error and the always-legal shot "0,0" (the arena
// ignores the status and only needs "play").
func (s *Server) battleship(bot *battleship.Bot, route *routeMetrics) http.Handler {
	const game = "battleship"
	return &endpoint[*wire.Request, any]{
		s: s, game: game, route: route,
		kind: func(q *wire.Request) string {
			switch q.Action {
			case "init":
				return "init"
			case "play-turn":
				return "shot"
			}
			return "other"
		},
		decode: func(_ *http.Request, b []byte) (*wire.Request, error) { return wire.Decode(b) },
		decide: func(_ context.Context, q *wire.Request) (any, error) {
			switch q.Action {
			case "init":
				if q.BoardErr != nil {
					return nil, q.BoardErr
				}
				boats, err := bot.Init(q.Opponent, q.Rules, battleship.GameSeed(q.GameID, q.PlayerIndex))
				if err != nil {
					return nil, err
				}
				return wire.InitAnswer{Name: bot.Name(), Boats: boats}, nil
			case "play-turn":
				if q.BoardErr != nil {
					p := &problem.Problem{Kind: problem.KindOf(q.BoardErr), Msg: q.BoardErr.Error()}
					p.Body = wire.TurnError{Error: p.Msg, Play: "0,0"}
					return nil, p
				}
				x, y := bot.PlayTurn(q.Opponent, q.Rules, q.Yours, q.His, battleship.GameSeed(q.GameID, q.PlayerIndex))
				return wire.TurnAnswer{Play: battleship.FormatTarget(x, y)}, nil
			}
			return wire.Ignored{Name: bot.Name(), Status: "ignored: unknown action"}, nil
		},
		// A failed shot still answers a cell of every board; a failed init
		// has no safe fleet to fall back on and is a 500.
		fallback: func(q *wire.Request) any {
			if q.Action == "play-turn" {
				return wire.TurnAnswer{Play: "0,0"}
			}
			return nil
		},
		encode: func(w http.ResponseWriter, a any) int {
			if a == nil {
				return writeJSON(w, http.StatusInternalServerError, httpkit.ErrorBody{Error: "internal error"})
			}
			return writeJSON(w, http.StatusOK, a)
		},
	}
}
