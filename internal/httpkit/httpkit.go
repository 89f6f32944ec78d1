// Package httpkit is what both listeners (the bot server and the browser
// tables) need around their handlers and nothing more: the one map from
// an error's kind to its HTTP status, JSON answers written in one write,
// error answers that never show an internal error's text to the client
// (it is logged instead), a bounded body reader, a status-remembering
// writer and a periodic janitor. It knows no game.
package httpkit

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/botarena/gamebot/internal/problem"
)

// Status is the HTTP status of a kind: the one place a kind becomes a
// status, for every listener.
func Status(k problem.Kind) int {
	switch k {
	case problem.Malformed:
		return http.StatusBadRequest
	case problem.NotFound:
		return http.StatusNotFound
	case problem.TooLarge:
		return http.StatusRequestEntityTooLarge
	case problem.Impossible:
		return http.StatusUnprocessableEntity
	case problem.Stale:
		return http.StatusConflict
	case problem.Forbidden:
		return http.StatusForbidden
	case problem.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// ErrorBody is the JSON shape of every error answer.
type ErrorBody struct {
	Error string `json:"error"`
}

var jsonContentType = []string{"application/json; charset=utf-8"}

// internalBody is the whole answer to an error that is not the client's.
var internalBody = []byte(`{"error":"internal error"}` + "\n")

// WriteJSON writes v with status in one write (headers and body together:
// no Nagle/delayed-ACK stall) and returns the status written.
func WriteJSON(w http.ResponseWriter, status int, v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return WriteRaw(w, http.StatusInternalServerError, internalBody)
	}
	return WriteRaw(w, status, append(b, '\n'))
}

// WriteRaw writes a JSON body that is ready (ending in a newline).
func WriteRaw(w http.ResponseWriter, status int, b []byte) int {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return status
}

// WriteProblem answers err and returns the status written. A Problem is
// the client's to read: its status, and its Body or {"error": Msg}. Any
// other error is ours: the client reads "internal error" and the cause
// goes to logger (nil: nowhere), with the request's method and path.
func WriteProblem(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) int {
	var p *problem.Problem
	if !errors.As(err, &p) {
		if logger != nil {
			logger.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		return WriteRaw(w, http.StatusInternalServerError, internalBody)
	}
	status := Status(p.Kind)
	if p.Body != nil {
		return WriteJSON(w, status, p.Body)
	}
	return WriteJSON(w, status, ErrorBody{Error: p.Msg})
}

// ReadBody appends r's whole body to dst, at most limit bytes: a larger
// body, declared or sent, is a TooLarge Problem (413), a failed read a
// Malformed one. dst may be a pooled buffer; the result may be it, grown.
func ReadBody(r *http.Request, limit int64, dst []byte) ([]byte, error) {
	b := dst[:0]
	if r.ContentLength > limit {
		return b, problem.New(problem.TooLarge, "request body larger than %d bytes", limit)
	}
	if r.ContentLength > 0 && int64(cap(b)) < r.ContentLength {
		b = make([]byte, 0, r.ContentLength)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return b, problem.New(problem.TooLarge, "request body larger than %d bytes", limit)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, problem.Malformedf("reading request body: %v", err)
		}
	}
}

// StatusWriter remembers the status a handler wrote (200 when it wrote
// none), for logs and metrics.
type StatusWriter struct {
	http.ResponseWriter
	Status int
}

// NewStatusWriter wraps w.
func NewStatusWriter(w http.ResponseWriter) *StatusWriter {
	return &StatusWriter{ResponseWriter: w, Status: http.StatusOK}
}

func (w *StatusWriter) WriteHeader(code int) {
	w.Status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap gives http.ResponseController the writer underneath (a long
// poll's deadline, a flush).
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Every calls f every interval until ctx is done: the janitors of
// sessions and tables, and the launcher watch.
func Every(ctx context.Context, interval time.Duration, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// Serve serves hs on ln until ctx is done, then shuts it down: stopping
// (nil: none) runs first (what must end before the connections do, such
// as long polls), then hs stops taking requests and waits up to grace for
// those in flight, then closes what is left. It returns the serving
// error, or the shutdown's (a grace run out is not an error).
func Serve(ctx context.Context, hs *http.Server, ln net.Listener, grace time.Duration, stopping func()) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if stopping != nil {
		stopping()
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		_ = hs.Close()
		err = nil
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}
