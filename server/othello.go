package server

import (
	"context"
	"net/http"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/wire"
)

// othelloMove serves POST /othello/move: the FlipSight engine request (the
// connector's --engine JSON line) in, {"move": N} out. The move is always
// one of legal_moves, or −1 exactly when legal_moves is empty. The search
// follows remaining_ms and budget_ms and stops when the client goes away.
func (s *Server) othelloMove(eng *othello.Engine, route *routeMetrics) http.Handler {
	return &endpoint[*othello.Position, othello.Decision]{
		s: s, game: "othello", kind: func(p *othello.Position) string { return p.State.Mode.String() },
		route: route,
		decode: func(_ *http.Request, b []byte) (*othello.Position, error) {
			req, err := wire.Decode(b)
			if err != nil {
				return nil, err
			}
			return req.Position()
		},
		decide: func(ctx context.Context, p *othello.Position) (othello.Decision, error) {
			d := eng.Choose(ctx, p)
			s.logger.DebugContext(ctx, "othello move", "mode", p.State.Mode, "move", d.Move, "depth", d.Depth,
				"exact", d.Exact, "score", d.Score, "nodes", d.Nodes, "ms", d.Elapsed.Milliseconds())
			return d, nil
		},
		fallback: func(p *othello.Position) othello.Decision { return othello.Decision{Move: othello.Fallback(p)} },
		encode: func(w http.ResponseWriter, d othello.Decision) int {
			return writeJSON(w, http.StatusOK, wire.Reply{Move: d.Move})
		},
	}
}
