package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
)

// Error is an error with the HTTP status the client should see. Handlers
// return it (or wrap it); writeError maps anything else to 500 without
// leaking details.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// errorf builds an *Error with a formatted message.
func errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// errorBody is the JSON shape of every error answer.
type errorBody struct {
	Error string `json:"error"`
}

// writeJSON encodes v with the given status. The body is marshalled first so
// that headers and body leave in one write (no Nagle/delayed-ACK stall).
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"internal error"}`)
	}
	b = append(b, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError answers err as {"error": "..."} with its status. Errors that are
// not *Error are internal: logged, and answered as a bare 500.
func writeError(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) {
	var e *Error
	if !errors.As(err, &e) {
		logger.ErrorContext(r.Context(), "internal error", "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: "internal error"})
		return
	}
	if e.Status >= 500 {
		logger.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "status", e.Status, "err", e.Message)
	} else {
		logger.WarnContext(r.Context(), "bad request", "path", r.URL.Path, "status", e.Status, "err", e.Message)
	}
	writeJSON(w, e.Status, errorBody{Error: e.Message})
}

// readBody reads the whole request body (already capped by the body-limit
// middleware) and maps a too-large body to 413.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", mbe.Limit)
		}
		return nil, errorf(http.StatusBadRequest, "reading request body: %v", err)
	}
	return b, nil
}

// decodeJSON decodes one JSON value from b into v. Unknown fields are
// allowed (platforms add fields over time); trailing data is not.
func decodeJSON(b []byte, v any) error {
	if len(b) == 0 {
		return errorf(http.StatusBadRequest, "empty request body: a JSON object is required")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			field := ute.Field
			if field == "" {
				field = "body"
			}
			return errorf(http.StatusBadRequest, "malformed JSON: %s must be %s, not %s", field, ute.Type, ute.Value)
		}
		return errorf(http.StatusBadRequest, "malformed JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errorf(http.StatusBadRequest, "malformed JSON: trailing data after the JSON value")
	}
	return nil
}
