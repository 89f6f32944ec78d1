package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// observe logs one line per request (debug; warn for 5xx) and records the
// request count and latency by route pattern, never by raw path.
func observe(logger *slog.Logger, m *Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			next.ServeHTTP(ww, r)
			status := ww.Status()
			if status == 0 {
				status = http.StatusOK
			}
			route := "unmatched"
			if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
				route = rc.RoutePattern()
			}
			d := time.Since(start)
			m.requests.WithLabelValues(route, r.Method, fmt.Sprint(status)).Inc()
			m.requestDuration.WithLabelValues(route, r.Method).Observe(d.Seconds())
			level := slog.LevelDebug
			if status >= 500 {
				level = slog.LevelWarn
			}
			if logger.Enabled(r.Context(), level) {
				logger.Log(r.Context(), level, "request",
					"id", middleware.GetReqID(r.Context()), "method", r.Method, "route", route,
					"path", r.URL.Path, "status", status, "bytes", ww.BytesWritten(), "duration", d)
			}
		})
	}
}

// recoverJSON turns a panic into a logged 500 with a JSON body, so one bad
// request never takes the process (or another session) down.
func recoverJSON(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					logger.ErrorContext(r.Context(), "panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
					writeJSON(w, http.StatusInternalServerError, errorBody{Error: "internal error"})
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// limitBody caps the request body; reading past it fails with
// *http.MaxBytesError, which readBody maps to 413.
func limitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > n {
				writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{Error: fmt.Sprintf("request body larger than %d bytes", n)})
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, n)
			next.ServeHTTP(w, r)
		})
	}
}
