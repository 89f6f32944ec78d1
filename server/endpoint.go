package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/internal/problem"
	"github.com/prometheus/client_golang/prometheus"
)

// endpoint is the one shape of every route that takes a request, for all
// three games: decode the body (and the path) into a request, decide,
// encode the answer.
//
//   - decode turns bytes into the game's request, or a *problem.Problem.
//   - decide computes the answer. When it fails or panics and fallback is
//     set, the fallback answers instead: the failure is logged at error
//     level and counted in bot_decision_fallbacks_total (platforms abort a
//     whole run on an error, not on a weaker move). Without a fallback,
//     the failure is the answer (a Problem, or a 500).
//   - encode writes the answer and returns the status it wrote.
//
// Every request's status and latency are counted by route, and every
// decision's latency by game and kind.
type endpoint[Q, A any] struct {
	s        *Server
	game     string
	kind     func(Q) string // decision kind for the metrics; nil: not a decision
	decode   func(r *http.Request, body []byte) (Q, error)
	decide   func(ctx context.Context, q Q) (A, error)
	fallback func(q Q) A
	encode   func(w http.ResponseWriter, a A) int
	route    *routeMetrics
}

func (e *endpoint[Q, A]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	status := e.serve(w, r)
	e.route.done(start, status)
	e.s.logRequest(r, e.route.route, status, start)
}

func (e *endpoint[Q, A]) serve(w http.ResponseWriter, r *http.Request) int {
	body, err := e.s.readBody(r)
	defer e.s.releaseBody(body)
	if err != nil {
		return e.s.writeProblem(w, r, err)
	}
	q, err := e.decode(r, *body)
	if err != nil {
		return e.s.writeProblem(w, r, err)
	}
	a, err := e.run(r.Context(), r, q)
	if err != nil {
		return e.s.writeProblem(w, r, err)
	}
	return e.encode(w, a)
}

// run decides q, recovering a panic, and applies the fallback.
func (e *endpoint[Q, A]) run(ctx context.Context, r *http.Request, q Q) (a A, err error) {
	start := time.Now()
	func() {
		defer func() {
			if v := recover(); v != nil {
				err = &panicError{value: v, stack: debug.Stack()}
			}
		}()
		a, err = e.decide(ctx, q)
	}()
	kind := ""
	if e.kind != nil {
		kind = e.kind(q)
		e.s.metrics.decision(e.game, kind).Observe(time.Since(start).Seconds())
	}
	if err == nil || e.fallback == nil || problem.KindOf(err) != problem.Internal {
		return a, err
	}
	e.s.metrics.fallback(e.game, kind).Inc()
	attrs := []any{"game", e.game, "kind", kind, "path", r.URL.Path, "err", err}
	if st := stackOf(err); st != nil {
		attrs = append(attrs, "stack", string(st))
	}
	e.s.logger.ErrorContext(ctx, "decision fell back", attrs...)
	return e.fallback(q), nil
}

// panicError is a panic recovered in a decision.
type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string { return "panic: " + fmtValue(p.value) }
func (p *panicError) Stack() []byte { return p.stack }

func fmtValue(v any) string {
	switch v := v.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return "non-error value"
}

// stackOf is the stack of a recovered panic: this package's, or a
// player's (giretra.PanicError).
func stackOf(err error) []byte {
	if err == nil {
		return nil
	}
	var s interface{ Stack() []byte }
	if errors.As(err, &s) {
		return s.Stack()
	}
	return nil
}

// writeProblem answers err through the kit (a Problem with its status,
// anything else a bare 500 whose cause is logged) and logs a client's
// mistake at warn level.
func (s *Server) writeProblem(w http.ResponseWriter, r *http.Request, err error) int {
	status := httpkit.WriteProblem(w, r, s.logger, err)
	if status < 500 && s.logger.Enabled(r.Context(), slog.LevelWarn) {
		s.logger.WarnContext(r.Context(), "bad request", "path", r.URL.Path, "status", status, "err", err.Error())
	}
	return status
}

// bodyPool recycles request buffers: decoded requests may alias the body
// (the Giretra options echoed back), so a buffer returns to the pool only
// after the answer is written.
var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// readBody reads the whole body into a pooled buffer, at most the
// configured size (413 beyond; a declared Content-Length is checked
// before reading).
func (s *Server) readBody(r *http.Request) (*[]byte, error) {
	buf := bodyPool.Get().(*[]byte)
	b, err := httpkit.ReadBody(r, s.maxBody, *buf)
	*buf = b
	return buf, err
}

// maxPooled bounds the buffers kept: a rare 4 MiB battleship body is not
// worth holding on to.
const maxPooled = 256 << 10

func (s *Server) releaseBody(buf *[]byte) {
	if cap(*buf) <= maxPooled {
		*buf = (*buf)[:0]
		bodyPool.Put(buf)
	}
}

// writeJSON and writeRaw are the kit's: one write, headers and body
// together.
var (
	writeJSON = httpkit.WriteJSON
	writeRaw  = httpkit.WriteRaw
)

// emptyObject is the {} answer of notifications.
var emptyObject = []byte("{}\n")

// routeMetrics are one route's request metrics, resolved once so that a
// request looks up no label on the common path.
type routeMetrics struct {
	route, method string
	requests      *prometheus.CounterVec
	duration      prometheus.Observer
	codes         [len(commonCodes)]atomic.Pointer[prometheus.Counter]
}

// commonCodes are the statuses the server answers; others are looked up.
var commonCodes = [...]int{200, 201, 204, 400, 404, 405, 413, 422, 500}

func (m *Metrics) forRoute(route, method string) *routeMetrics {
	return &routeMetrics{route: route, method: method, requests: m.requests,
		duration: m.requestDuration.WithLabelValues(route, method)}
}

func (rm *routeMetrics) done(start time.Time, status int) {
	rm.duration.Observe(time.Since(start).Seconds())
	for i, c := range commonCodes {
		if c != status {
			continue
		}
		p := rm.codes[i].Load()
		if p == nil {
			ctr := rm.requests.WithLabelValues(rm.route, rm.method, strconv.Itoa(status))
			p = &ctr
			rm.codes[i].Store(p)
		}
		(*p).Inc()
		return
	}
	rm.requests.WithLabelValues(rm.route, rm.method, strconv.Itoa(status)).Inc()
}

// logRequest writes one debug line per request (warn for 5xx).
func (s *Server) logRequest(r *http.Request, route string, status int, start time.Time) {
	level := slog.LevelDebug
	if status >= 500 {
		level = slog.LevelWarn
	}
	if s.logger.Enabled(r.Context(), level) {
		s.logger.Log(r.Context(), level, "request", "method", r.Method, "route", route,
			"path", r.URL.Path, "status", status, "duration", time.Since(start))
	}
}
