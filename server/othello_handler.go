package server

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/botarena/gamebot/othello"
)

// handleOthelloMove serves POST /othello/move: the FlipSight engine request
// (the connector's --engine JSON line) in, {"move": N} out. The move is
// always one of legal_moves, or −1 exactly when legal_moves is empty. The
// search follows remaining_ms and budget_ms and stops when the client goes
// away. Bad input: 400 when the body is not a well-formed request, 422 when
// it describes an impossible position or move list.
func handleOthelloMove(logger *slog.Logger, eng *othello.Engine) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := readBody(r)
		if err != nil {
			writeError(w, r, logger, err)
			return
		}
		var req othello.Request
		if err := decodeJSON(body, &req); err != nil {
			writeError(w, r, logger, err)
			return
		}
		pos, err := req.Validate()
		if err != nil {
			status := http.StatusUnprocessableEntity
			if errors.Is(err, othello.ErrMalformed) {
				status = http.StatusBadRequest
			}
			writeError(w, r, logger, errorf(status, "%v", err))
			return
		}
		d := eng.Choose(r.Context(), pos)
		logger.DebugContext(r.Context(), "othello move", "mode", pos.State.Mode, "move", d.Move, "depth", d.Depth,
			"exact", d.Exact, "score", d.Score, "nodes", d.Nodes, "ms", d.Elapsed.Milliseconds())
		writeJSON(w, http.StatusOK, othello.Reply{Move: d.Move})
	})
}
