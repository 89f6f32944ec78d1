package table

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/problem"
	"github.com/go-chi/chi/v5"
)

// Limits of the HTTP surface.
const (
	// MaxBody is the largest request body: an action or a table's setup
	// is a few hundred bytes.
	MaxBody = 8 << 10
	// PollWait is how long a long poll waits for a newer view before it
	// answers with the current one; the listener's write timeout must be
	// longer.
	PollWait = 25 * time.Second
)

// The pages' security policy: everything from the page's own origin,
// nothing inline, nothing from anywhere else.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// reviewCSP is the review pages' policy: they are the referees'
// self-contained reports (inline style and script, nothing fetched from
// anywhere, not even this server).
const reviewCSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"

//go:embed kit.js
var kitJS []byte

//go:embed kit.css
var kitCSS []byte

//go:embed lobby.html.tmpl
var lobbySource string

var lobbyTemplate = template.Must(template.New("lobby").Parse(lobbySource))

// Handler serves the lobby, the games' pages and the tables' API:
//
//	GET  /play                          the lobby
//	GET  /play/kit.js, /play/kit.css    the pages' shared script and style
//	GET  /play/{game}                   a game's table page (setup, table, review)
//	GET  /play/{game}/{asset}           its script and style
//	GET  /play/api/tables               the lobby's lines (JSON)
//	POST /play/api/{game}/tables        a new table: the setup options → {"id", "url"}
//	GET  /play/api/tables/{id}?after=N  the table's view once past version N (long poll;
//	                                    &valid=1 adds the actions the person may send)
//	POST /play/api/tables/{id}/actions  {"seq": N, "action": {…}} → the new view
//	GET  /play/tables/{id}/review       the game's review page (HTML)
//	GET  /play/tables/{id}/record       the game's record (a download)
func (h *Hub) Handler(logger *slog.Logger) http.Handler {
	r := chi.NewRouter()
	r.Use(h.guard(logger))
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, problem.New(problem.NotFound, "no such page: %s %s", r.Method, r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: "method " + r.Method + " not allowed on " + r.URL.Path})
	})
	r.Get("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/play", http.StatusFound) })
	// Browsers ask for an icon on their own; there is none to send.
	r.Get("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	r.Get("/play", h.lobby)
	r.Get("/play/kit.js", asset("kit.js", kitJS))
	r.Get("/play/kit.css", asset("kit.css", kitCSS))
	r.Get("/play/{game}", h.page)
	r.Get("/play/{game}/{asset}", h.gameAsset)
	r.Get("/play/api/tables", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, h.Tables()) })
	r.Post("/play/api/{game}/tables", h.create)
	r.Get("/play/api/tables/{id}", h.view)
	r.Post("/play/api/tables/{id}/actions", h.act)
	r.Get("/play/tables/{id}/review", h.review)
	r.Get("/play/tables/{id}/record", h.record)
	return r
}

// guard sets the security headers of every answer and refuses the API
// to other origins: a page elsewhere must not play a person's seat.
func (h *Hub) guard(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			hd := w.Header()
			hd.Set("Content-Security-Policy", pageCSP)
			hd.Set("X-Content-Type-Options", "nosniff")
			hd.Set("Referrer-Policy", "no-referrer")
			hd.Set("Cache-Control", "no-store")
			sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
			if err := sameOrigin(r); err != nil {
				writeProblem(sw, err)
			} else {
				next.ServeHTTP(sw, r)
			}
			if logger != nil {
				logger.Debug("play", "method", r.Method, "path", r.URL.Path, "status", sw.status, "ms", time.Since(start).Milliseconds())
			}
		})
	}
}

// sameOrigin refuses a request a browser made for a page of another
// origin (its Origin header, or Sec-Fetch-Site for the requests that
// carry no Origin). Tools that send neither are served: they are not a
// browser's page acting for a person.
func sameOrigin(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			return problem.New(problem.Forbidden, "requests from %q are refused: this table is served to %s only", o, r.Host)
		}
		return nil
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return problem.New(problem.Forbidden, "cross-site requests are refused")
	}
	return nil
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func asset(name string, b []byte) http.HandlerFunc {
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		// Assets are part of the binary: a new binary may change them, so
		// they are revalidated rather than cached for long.
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	}
}

type lobbyData struct {
	Games  []*Game
	Tables []Summary
}

func (h *Hub) lobby(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := lobbyTemplate.Execute(&buf, lobbyData{Games: h.Games(), Tables: h.Tables()}); err != nil {
		writeProblem(w, err)
		return
	}
	writeHTML(w, buf.Bytes())
}

func (h *Hub) page(w http.ResponseWriter, r *http.Request) {
	g := h.Game(chi.URLParam(r, "game"))
	if g == nil {
		writeProblem(w, problem.New(problem.NotFound, "no game %q", chi.URLParam(r, "game")))
		return
	}
	writeHTML(w, g.Page)
}

func (h *Hub) gameAsset(w http.ResponseWriter, r *http.Request) {
	g := h.Game(chi.URLParam(r, "game"))
	name := chi.URLParam(r, "asset")
	if g == nil || g.Assets[name] == nil {
		writeProblem(w, problem.New(problem.NotFound, "no file %s", r.URL.Path))
		return
	}
	asset(name, g.Assets[name])(w, r)
}

func writeHTML(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// readBody reads at most MaxBody bytes.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxBody {
		return nil, problem.New(problem.TooLarge, "request body larger than %d bytes", MaxBody)
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, problem.Malformedf("reading request body: %v", err)
	}
	if len(b) > MaxBody {
		return nil, problem.New(problem.TooLarge, "request body larger than %d bytes", MaxBody)
	}
	return b, nil
}

type created struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

func (h *Hub) create(w http.ResponseWriter, r *http.Request) {
	b, err := readBody(r)
	if err != nil {
		writeProblem(w, err)
		return
	}
	game := chi.URLParam(r, "game")
	id, err := h.Create(game, b)
	if err != nil {
		writeProblem(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, created{ID: id, URL: "/play/" + game + "?t=" + url.QueryEscape(id)})
}

// ViewBody is the answer carrying a table's view.
type ViewBody struct {
	Seq int `json:"seq"`
	// At is when the table last changed its view (Unix milliseconds, the
	// server's clock): a scripted client on the same machine measures
	// from it how long a bot's move took to reach it.
	At int64 `json:"at"`
	// Over: the table's game is over (its Summary's).
	Over bool `json:"over"`
	View any  `json:"view"`
	// Valid, asked for with ?valid=1, are the actions the person may send
	// now (a Scripted table's).
	Valid []any `json:"valid,omitempty"`
}

// withValid adds whether the game is over, and the table's valid actions
// when the request asks.
func withValid(r *http.Request, t Table, b ViewBody) ViewBody {
	b.Over = t.Summary().Over
	if s, ok := t.(Scripted); ok && r.URL.Query().Get("valid") == "1" {
		b.Valid = s.Valid()
		if b.Valid == nil {
			b.Valid = []any{}
		}
	}
	return b
}

func (h *Hub) view(w http.ResponseWriter, r *http.Request) {
	after := -1
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 {
			writeProblem(w, problem.Malformedf("after=%q: want a version number", v))
			return
		}
		after = n
	}
	ctx := r.Context()
	if after >= 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, PollWait)
		defer cancel()
	}
	seq, v, at, err := h.Wait(ctx, chi.URLParam(r, "id"), after)
	if err != nil {
		writeProblem(w, err)
		return
	}
	t, _, err := h.Table(chi.URLParam(r, "id"))
	if err != nil {
		writeProblem(w, err)
		return
	}
	writeJSON(w, http.StatusOK, withValid(r, t, ViewBody{Seq: seq, At: at.UnixMilli(), View: v}))
}

// ActionBody is what a page posts: the version it decided on and the
// game's action.
type ActionBody struct {
	Seq    *int            `json:"seq"`
	Action json.RawMessage `json:"action"`
}

func (h *Hub) act(w http.ResponseWriter, r *http.Request) {
	b, err := readBody(r)
	if err != nil {
		writeProblem(w, err)
		return
	}
	t, _, err := h.Table(chi.URLParam(r, "id"))
	if err != nil {
		writeProblem(w, err)
		return
	}
	var a ActionBody
	if err := problem.Decode(b, &a); err != nil {
		writeProblem(w, err)
		return
	}
	if a.Seq == nil || len(a.Action) == 0 {
		writeProblem(w, problem.Malformedf(`an action is {"seq": the version it was decided on, "action": {…}}`))
		return
	}
	if err := t.Act(*a.Seq, a.Action); err != nil {
		writeProblem(w, err)
		return
	}
	seq, v := t.View()
	writeJSON(w, http.StatusOK, withValid(r, t, ViewBody{Seq: seq, At: time.Now().UnixMilli(), View: v}))
}

func (h *Hub) review(w http.ResponseWriter, r *http.Request) {
	t, _, err := h.Table(chi.URLParam(r, "id"))
	if err != nil {
		writeProblem(w, err)
		return
	}
	rv, ok := t.(Reviewer)
	if !ok {
		writeProblem(w, problem.New(problem.NotFound, "this game has no review page"))
		return
	}
	page, err := rv.Review()
	if err != nil {
		writeProblem(w, err)
		return
	}
	w.Header().Set("Content-Security-Policy", reviewCSP)
	writeHTML(w, page)
}

func (h *Hub) record(w http.ResponseWriter, r *http.Request) {
	t, _, err := h.Table(chi.URLParam(r, "id"))
	if err != nil {
		writeProblem(w, err)
		return
	}
	rc, ok := t.(Recorder)
	if !ok {
		writeProblem(w, problem.New(problem.NotFound, "this game keeps no record"))
		return
	}
	name, data, err := rc.Record()
	if err != nil {
		writeProblem(w, err)
		return
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" || strings.HasPrefix(ct, "text/html") {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

type errorBody struct {
	Error string `json:"error"`
}

// writeProblem answers err: a Problem with its status and its body (or
// {"error": …}); anything else as a bare 500.
func writeProblem(w http.ResponseWriter, err error) {
	var p *problem.Problem
	if !errors.As(err, &p) {
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: "internal error: " + err.Error()})
		return
	}
	var body any = errorBody{Error: p.Msg}
	if p.Body != nil {
		body = p.Body
	}
	writeJSON(w, problem.Status(p.Kind), body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
