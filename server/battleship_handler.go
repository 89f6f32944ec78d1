package server

import (
	"log/slog"
	"net/http"

	"github.com/botarena/gamebot/battleship"
)

// handleBattleship serves botsArena's battleship protocol on one POST
// route: it routes on "action" (init / play-turn; "game" is ignored because
// the arena spells it differently per action), and answers anything else
// with a harmless JSON object.
//
// Errors keep the arena playing when that is possible: a play-turn whose
// board cannot be read is answered with its 4xx status and a JSON body that
// carries both the error and the always-legal shot "0,0" (the arena ignores
// the status and only needs "play").
func handleBattleship(logger *slog.Logger, bot *battleship.Bot) http.Handler {
	type ignored struct {
		Name   string `json:"name"`
		Status string `json:"status"`
	}
	type turnError struct {
		Error string `json:"error"`
		Play  string `json:"play"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := readBody(r)
		if err != nil {
			writeError(w, r, logger, err)
			return
		}
		req, err := battleship.DecodeRequest(body)
		if err != nil {
			writeError(w, r, logger, battleshipError(err))
			return
		}
		switch req.Action {
		case "init":
			ans, err := bot.Init(req)
			if err != nil {
				writeError(w, r, logger, battleshipError(err))
				return
			}
			writeJSON(w, http.StatusOK, ans)
		case "play-turn":
			ans, err := bot.PlayTurn(req)
			if err != nil {
				e := battleshipError(err)
				logger.WarnContext(r.Context(), "bad request", "path", r.URL.Path, "status", e.Status, "err", e.Message)
				writeJSON(w, e.Status, turnError{Error: e.Message, Play: ans.Play})
				return
			}
			writeJSON(w, http.StatusOK, ans)
		default:
			writeJSON(w, http.StatusOK, ignored{Name: "gamebot", Status: "ignored: unknown action"})
		}
	})
}

// battleshipError maps engine errors to statuses: unreadable input is 400,
// a readable but impossible request (a fleet that cannot fit) is 422. The
// engine returns no other errors; anything else is a generic 500.
func battleshipError(err error) *Error {
	switch battleship.KindOf(err) {
	case battleship.Malformed:
		return errorf(http.StatusBadRequest, "%s", err.Error())
	case battleship.Impossible:
		return errorf(http.StatusUnprocessableEntity, "%s", err.Error())
	}
	return errorf(http.StatusInternalServerError, "internal error")
}
