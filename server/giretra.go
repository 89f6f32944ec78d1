package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/search"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/problem"
	"github.com/go-chi/chi/v5"
)

// The Giretra engine's session protocol (RemoteBotClient.cs): sessions,
// three decisions and six notifications, each an endpoint.

const giretraGame = "giretra"

// session finds the session a request names, or answers 404.
func (s *Server) session(r *http.Request) (*session, error) {
	id := chi.URLParam(r, "id")
	se := s.sessions.get(id)
	if se == nil {
		return nil, problem.New(problem.NotFound, "unknown session %q (never created, deleted, or expired)", id)
	}
	return se, nil
}

func (s *Server) giretraCreate(route *routeMetrics) http.Handler {
	return &endpoint[wire.Create, *session]{
		s: s, game: giretraGame, route: route,
		decode: func(_ *http.Request, b []byte) (wire.Create, error) { return wire.DecodeCreate(b) },
		decide: func(ctx context.Context, c wire.Create) (*session, error) {
			se := s.sessions.create(c.Seat)
			s.logger.DebugContext(ctx, "session created", "session", se.id, "seat", c.Seat, "match", c.MatchID)
			return se, nil
		},
		encode: func(w http.ResponseWriter, se *session) int {
			return writeJSON(w, http.StatusCreated, wire.SessionCreated{SessionID: se.id})
		},
	}
}

func (s *Server) giretraDelete(route *routeMetrics) http.Handler {
	return &endpoint[string, struct{}]{
		s: s, game: giretraGame, route: route,
		decode: func(r *http.Request, _ []byte) (string, error) { return chi.URLParam(r, "id"), nil },
		decide: func(_ context.Context, id string) (struct{}, error) {
			s.sessions.delete(id) // unknown ids are fine: DELETE is idempotent
			return struct{}{}, nil
		},
		encode: func(w http.ResponseWriter, _ struct{}) int {
			w.WriteHeader(http.StatusNoContent)
			return http.StatusNoContent
		},
	}
}

// search runs a decision under a search slot. There is one slot per CPU,
// so that a search never shares its core with another: on a quiet machine
// every decision finds a free slot and searches to its work limit, and
// answers are reproducible. Under load (every slot busy) a decision waits
// for a slot, and its search stops loadBudget after it arrived; when no
// slot frees in time it gets the fast heuristic (an expired context): a
// weaker move beats an error, on which the engine aborts a whole run.
// The decision's context tells its searches when every CPU is searching,
// the one time they should yield to cheap requests (search.WithBusy).
func (s *Server) search(ctx context.Context, f func(context.Context) error) error {
	ctx = search.WithBusy(ctx, s.busy)
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
		return f(ctx)
	default:
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, s.loadBudget)
	defer cancel()
	wait := time.NewTimer(s.loadBudget - s.loadBudget/4)
	defer wait.Stop()
	if s.waiting != nil {
		s.waiting()
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
		s.metrics.overloaded.WithLabelValues(giretraGame, "shortened").Inc()
	case <-wait.C:
		s.metrics.overloaded.WithLabelValues(giretraGame, "heuristic").Inc()
		cancel()
	case <-ctx.Done():
		if parent.Err() == nil { // the budget, not the caller, ended the wait
			s.metrics.overloaded.WithLabelValues(giretraGame, "heuristic").Inc()
		}
	}
	return f(ctx)
}

type cutRequest struct {
	se    *session
	match giretra.MatchState
}

func (s *Server) giretraCut(route *routeMetrics) http.Handler {
	return &endpoint[*cutRequest, giretra.Cut]{
		s: s, game: giretraGame, kind: func(*cutRequest) string { return "cut" },
		route: route,
		decode: func(r *http.Request, b []byte) (*cutRequest, error) {
			se, err := s.session(r)
			if err != nil {
				return nil, err
			}
			ms, err := wire.DecodeCut(b)
			return &cutRequest{se, ms}, err
		},
		decide: func(ctx context.Context, q *cutRequest) (cut giretra.Cut, err error) {
			q.se.mu.Lock()
			defer q.se.mu.Unlock()
			// No search slot: choosing a cut costs microseconds.
			cut, err = q.se.player.ChooseCut(ctx, q.se.seat, &q.match)
			if err == nil && !cut.Valid() {
				err = errors.New("cut outside 6..26")
			}
			return cut, err
		},
		fallback: func(*cutRequest) giretra.Cut { return giretra.FallbackCut() },
		encode: func(w http.ResponseWriter, c giretra.Cut) int {
			return writeJSON(w, http.StatusOK, wire.CutAnswer{Position: c.Position, FromTop: c.FromTop})
		},
	}
}

type bidRequest struct {
	se  *session
	bid *wire.Bid
}

// giretraBid answers the offered action the player chose, echoed exactly
// as it was sent, so that it matches field for field in either dialect.
func (s *Server) giretraBid(route *routeMetrics) http.Handler {
	return &endpoint[*bidRequest, []byte]{
		s: s, game: giretraGame, kind: func(*bidRequest) string { return "negotiation" },
		route: route,
		decode: func(r *http.Request, b []byte) (*bidRequest, error) {
			se, err := s.session(r)
			if err != nil {
				return nil, err
			}
			bid, err := wire.DecodeBid(b, se.seat)
			return &bidRequest{se, bid}, err
		},
		decide: func(ctx context.Context, q *bidRequest) ([]byte, error) {
			q.se.mu.Lock()
			defer q.se.mu.Unlock()
			var a giretra.Action
			err := s.search(ctx, func(ctx context.Context) (err error) {
				a, err = q.se.player.ChooseAction(ctx, &q.bid.View)
				return err
			})
			if err != nil {
				return nil, err
			}
			for i, v := range q.bid.View.Valid {
				if v.SameChoice(a) {
					return q.bid.Raw[i], nil
				}
			}
			return nil, errors.New("the player chose an action that was not offered")
		},
		fallback: func(q *bidRequest) []byte {
			f := giretra.FallbackAction(q.bid.View.Valid)
			for i, v := range q.bid.View.Valid {
				if v == f {
					return q.bid.Raw[i]
				}
			}
			return q.bid.Raw[0]
		},
		encode: writeOption,
	}
}

type cardRequest struct {
	se   *session
	play *wire.Play
}

func (s *Server) giretraCard(route *routeMetrics) http.Handler {
	return &endpoint[*cardRequest, []byte]{
		s: s, game: giretraGame, kind: func(*cardRequest) string { return "card" },
		route: route,
		decode: func(r *http.Request, b []byte) (*cardRequest, error) {
			se, err := s.session(r)
			if err != nil {
				return nil, err
			}
			play, err := wire.DecodePlay(b, se.seat)
			return &cardRequest{se, play}, err
		},
		decide: func(ctx context.Context, q *cardRequest) ([]byte, error) {
			q.se.mu.Lock()
			defer q.se.mu.Unlock()
			var c giretra.Card
			err := s.search(ctx, func(ctx context.Context) (err error) {
				c, err = q.se.player.ChooseCard(ctx, &q.play.View)
				return err
			})
			if err != nil {
				return nil, err
			}
			raw, ok := q.play.Raw[c]
			if !ok {
				return nil, errors.New("the player chose a card that was not offered")
			}
			return raw, nil
		},
		fallback: func(q *cardRequest) []byte { return q.play.Raw[giretra.FallbackCard(q.play.View.Valid)] },
		encode:   writeOption,
	}
}

// writeOption echoes an offered option as it was sent, compacted.
func writeOption(w http.ResponseWriter, raw []byte) int {
	var buf bytes.Buffer
	buf.Grow(len(raw) + 1)
	if json.Compact(&buf, raw) != nil {
		buf.Reset()
		buf.Write(raw) // cannot happen: the request was scanned as JSON
	}
	buf.WriteByte('\n')
	return writeRaw(w, http.StatusOK, buf.Bytes())
}

type notifyRequest struct {
	se    *session
	known bool
	n     *wire.Notification
}

// giretraNotify takes the six notifications. Unknown names get 200 and are
// counted, without reading the body: the engine may add events.
func (s *Server) giretraNotify(route *routeMetrics) http.Handler {
	return &endpoint[*notifyRequest, struct{}]{
		s: s, game: giretraGame, route: route,
		decode: func(r *http.Request, b []byte) (*notifyRequest, error) {
			se, err := s.session(r)
			if err != nil {
				return nil, err
			}
			kind, known := giretra.ParseEventKind(strings.ToLower(chi.URLParam(r, "event")))
			if !known {
				s.metrics.unknown.Inc()
				return &notifyRequest{se: se}, nil
			}
			s.metrics.events[kind].Inc()
			n, err := wire.DecodeNotification(kind, b)
			return &notifyRequest{se, true, n}, err
		},
		decide: func(ctx context.Context, q *notifyRequest) (struct{}, error) {
			if !q.known {
				return struct{}{}, nil
			}
			q.se.mu.Lock()
			err := q.se.player.Notify(ctx, q.se.seat, &q.n.Event)
			q.se.mu.Unlock()
			if st := stackOf(err); st != nil {
				s.metrics.fallback(giretraGame, "notification").Inc()
				s.logger.ErrorContext(ctx, "notification failed", "event", q.n.Event.Kind, "err", err, "stack", string(st))
			} else if err != nil {
				s.logger.WarnContext(ctx, "notification not used", "event", q.n.Event.Kind, "err", err)
			}
			if q.n.Event.Kind == giretra.MatchEnded {
				s.sessions.matchEnded(q.se)
			}
			return struct{}{}, nil
		},
		encode: func(w http.ResponseWriter, _ struct{}) int { return writeRaw(w, http.StatusOK, emptyObject) },
	}
}
