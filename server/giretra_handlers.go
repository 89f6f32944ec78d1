package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/go-chi/chi/v5"
)

// giretraAPI serves the Giretra engine's session protocol
// (RemoteBotClient.cs): sessions, three decisions and six notifications.
type giretraAPI struct {
	logger   *slog.Logger
	sessions *sessionStore
	metrics  *Metrics
	// slots bounds the decisions that may search at once; a decision that
	// finds none free is answered at once by the fast heuristic (a weaker
	// move beats an error: the engine aborts a whole run on any error).
	slots chan struct{}
}

// createRequest is POST /api/sessions in both dialects: the engine sends
// position, matchId and maybe seed; the seed document only matchId.
type createRequest struct {
	Position string `json:"position" validate:"omitempty,max=16"`
	MatchID  string `json:"matchId" validate:"required,max=256"`
	Seed     *int64 `json:"seed"`
}

func (g *giretraAPI) create(w http.ResponseWriter, r *http.Request) {
	b, err := readBody(r)
	if err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	var req createRequest
	if err := decodeJSON(b, &req); err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	if err := validStruct(&req); err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	seat := giretra.Bottom // the seed document's sessions carry no seat
	if req.Position != "" {
		p, ok := giretra.ParsePosition(req.Position)
		if !ok {
			writeError(w, r, g.logger, errorf(http.StatusBadRequest, "invalid request: position: must be one of Bottom Left Top Right, not %q", req.Position))
			return
		}
		seat = p
	}
	se := g.sessions.create(seat)
	g.logger.DebugContext(r.Context(), "session created", "session", se.id, "seat", seat, "match", req.MatchID)
	writeJSON(w, http.StatusCreated, wire.SessionCreated{SessionID: se.id})
}

func (g *giretraAPI) delete(w http.ResponseWriter, r *http.Request) {
	g.sessions.delete(chi.URLParam(r, "id"))
	w.WriteHeader(http.StatusNoContent)
}

// session finds the session of the request, or answers 404.
func (g *giretraAPI) session(w http.ResponseWriter, r *http.Request) *session {
	id := chi.URLParam(r, "id")
	se := g.sessions.get(id)
	if se == nil {
		writeError(w, r, g.logger, errorf(http.StatusNotFound, "unknown session %q (never created, deleted, or expired)", id))
	}
	return se
}

// decode reads, decodes and validates the body into v.
func decodeValid(r *http.Request, v any) error {
	b, err := readBody(r)
	if err != nil {
		return err
	}
	if err := decodeJSON(b, v); err != nil {
		return err
	}
	return validStruct(v)
}

// problem maps a wire decoding problem to 400 or 422.
func problem(err error) error {
	var p *wire.Problem
	if errors.As(err, &p) {
		status := http.StatusBadRequest
		if p.Impossible {
			status = http.StatusUnprocessableEntity
		}
		return &Error{Status: status, Message: err.Error()}
	}
	return err
}

// decide runs f under a search slot, or with an expired context (the fast
// heuristic) when every slot is busy, and records its latency.
func (g *giretraAPI) decide(ctx context.Context, kind string, f func(context.Context)) {
	start := time.Now()
	select {
	case g.slots <- struct{}{}:
		defer func() { <-g.slots }()
	default:
		g.metrics.overloaded.WithLabelValues("giretra").Inc()
		fast, cancel := context.WithCancel(ctx)
		cancel()
		ctx = fast
	}
	f(ctx)
	g.metrics.decisionDuration.WithLabelValues("giretra", kind).Observe(time.Since(start).Seconds())
}

func (g *giretraAPI) chooseCut(w http.ResponseWriter, r *http.Request) {
	se := g.session(w, r)
	if se == nil {
		return
	}
	var req wire.InCutRequest
	if err := decodeValid(r, &req); err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	ms, err := req.MatchState.Model()
	if err != nil {
		writeError(w, r, g.logger, problem(err))
		return
	}
	se.mu.Lock()
	defer se.mu.Unlock()
	var cut giretra.Cut
	g.decide(r.Context(), "cut", func(ctx context.Context) {
		cut, err = se.player.ChooseCut(ctx, se.seat, &ms)
	})
	if err != nil || !cut.Valid() {
		g.fallback(r, "cut", err)
		cut = giretra.Cut{Position: 16, FromTop: true}
	}
	writeJSON(w, http.StatusOK, wire.CutAnswer{Position: cut.Position, FromTop: cut.FromTop})
}

func (g *giretraAPI) chooseAction(w http.ResponseWriter, r *http.Request) {
	se := g.session(w, r)
	if se == nil {
		return
	}
	var req wire.InBidRequest
	if err := decodeValid(r, &req); err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	bid, err := wire.DecodeBid(&req, se.seat)
	if err != nil {
		writeError(w, r, g.logger, problem(err))
		return
	}
	se.mu.Lock()
	defer se.mu.Unlock()
	var a giretra.Action
	g.decide(r.Context(), "negotiation", func(ctx context.Context) {
		a, err = se.player.ChooseAction(ctx, &bid.View)
	})
	idx := -1
	if err == nil {
		for i, v := range bid.View.Valid {
			if v.SameChoice(a) {
				idx = i
				break
			}
		}
	}
	if idx < 0 {
		g.fallback(r, "negotiation", err)
		idx = fallbackAction(bid.View.Valid)
	}
	writeRaw(w, bid.Raw[idx])
}

// fallbackAction is the engine's own fallback: Accept if offered, else the first.
func fallbackAction(valid []giretra.Action) int {
	for i, v := range valid {
		if v.Type == giretra.Accept {
			return i
		}
	}
	return 0
}

func (g *giretraAPI) chooseCard(w http.ResponseWriter, r *http.Request) {
	se := g.session(w, r)
	if se == nil {
		return
	}
	var req wire.InCardRequest
	if err := decodeValid(r, &req); err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	play, err := wire.DecodePlay(&req, se.seat)
	if err != nil {
		writeError(w, r, g.logger, problem(err))
		return
	}
	se.mu.Lock()
	defer se.mu.Unlock()
	var c giretra.Card
	g.decide(r.Context(), "card", func(ctx context.Context) {
		c, err = se.player.ChooseCard(ctx, &play.View)
	})
	raw, ok := play.Raw[c]
	if err != nil || !ok {
		g.fallback(r, "card", err)
		raw = play.Raw[play.View.Valid.First()]
	}
	writeRaw(w, raw)
}

func (g *giretraAPI) fallback(r *http.Request, kind string, err error) {
	g.metrics.decisionFallbacks.WithLabelValues("giretra", kind).Inc()
	g.logger.WarnContext(r.Context(), "decision fell back", "kind", kind, "path", r.URL.Path, "err", err)
}

// writeRaw echoes an offered option as it was sent (compacted), so the
// answer matches it field for field in either dialect.
func writeRaw(w http.ResponseWriter, raw []byte) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		buf.Reset()
		buf.Write(raw)
	}
	writeJSON(w, http.StatusOK, json.RawMessage(buf.Bytes()))
}

func (g *giretraAPI) notify(w http.ResponseWriter, r *http.Request) {
	se := g.session(w, r)
	if se == nil {
		return
	}
	name := strings.ToLower(chi.URLParam(r, "event"))
	kind, known := giretra.ParseEventKind(name)
	if !known {
		g.metrics.notifications.WithLabelValues("unknown").Inc()
		writeJSON(w, http.StatusOK, struct{}{})
		return
	}
	g.metrics.notifications.WithLabelValues(kind.String()).Inc()
	var req wire.InNotification
	if err := decodeValid(r, &req); err != nil {
		writeError(w, r, g.logger, err)
		return
	}
	n, err := wire.DecodeNotification(kind, &req)
	if err != nil {
		writeError(w, r, g.logger, problem(err))
		return
	}
	se.mu.Lock()
	err = se.player.Notify(r.Context(), se.seat, &n.Event)
	se.mu.Unlock()
	if err != nil {
		g.logger.WarnContext(r.Context(), "notification not used", "event", kind, "err", err)
	}
	if kind == giretra.MatchEnded {
		g.sessions.matchEnded(se)
	}
	writeJSON(w, http.StatusOK, struct{}{})
}
