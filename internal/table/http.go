package table

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/json"
	"html/template"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
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
	"media-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// reviewCSP is the review pages' policy: they are the referees'
// self-contained reports (inline style and script, nothing fetched from
// anywhere, not even this server).
const reviewCSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"

// clientCookie names a browser to the hub: the lobby lists the tables
// that browser set up, and the per-client cap counts them. It is not a
// credential (the seats' tokens are).
const clientCookie = "gamebot_client"

//go:embed kit.js
var kitJS []byte

//go:embed kit.css
var kitCSS []byte

//go:embed lobby.html.tmpl
var lobbySource string

var lobbyTemplate = func() *template.Template {
	t, err := parsePage("lobby", lobbySource)
	if err != nil {
		panic(err)
	}
	return t
}()

//go:embed lobby.js
var lobbyJS []byte

// Handler serves the lobby, the games' pages and the tables' API. A
// token (the ?t= of a table's page) opens one seat of one table:
//
//	GET  /play                             the lobby
//	GET  /play/kit.js, /play/kit.css       the pages' shared script and style
//	GET  /play/{game}                      a game's table page (setup, table, review)
//	GET  /play/{game}/{asset}              its script and style
//	GET  /play/api/tables                  the lobby's lines: this browser's tables (JSON)
//	GET  /play/api/{game}/choices          what the game's setup form may offer
//	POST /play/api/{game}/tables           a new table: the setup options → its links
//	GET  /play/api/tables/{token}?after=N  the seat's view once past version N (long poll;
//	                                       &valid=1 adds the actions the seat may send)
//	POST /play/api/tables/{token}/actions  {"seq": N, "action": {…}} → the new view
//	GET  /play/tables/{token}/review       the game's review page (HTML)
//	GET  /play/tables/{token}/record       the game's record (a download)
//
// Every request whose Host is not one the listener is reached by is
// refused before any of these (DNS rebinding: a page of another site
// whose name now points at this machine), and the API refuses requests
// a page of another origin makes. logger (nil: none) is told each
// request at debug level and each internal error.
func (h *Hub) Handler(logger *slog.Logger) http.Handler {
	r := chi.NewRouter()
	r.Use(h.guard(logger), middleware.GetHead)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, logger, problem.New(problem.NotFound, "no such page: %s", r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		httpkit.WriteJSON(w, http.StatusMethodNotAllowed, httpkit.ErrorBody{Error: "method " + r.Method + " not allowed on " + r.URL.Path})
	})
	r.Get("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/play", http.StatusFound) })
	// Browsers ask for an icon on their own; there is none to send.
	r.Get("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	r.Get("/play", h.lobby(logger))
	r.Get("/play/kit.js", asset("kit.js", kitJS))
	r.Get("/play/kit.css", asset("kit.css", kitCSS))
	r.Get("/play/lobby.js", asset("lobby.js", lobbyJS))
	r.Get("/play/{game}", h.page(logger))
	r.Get("/play/{game}/{asset}", h.gameAsset(logger))
	r.Get("/play/api/tables", func(w http.ResponseWriter, r *http.Request) {
		httpkit.WriteJSON(w, http.StatusOK, h.Tables(clientOf(r), printerOf(r)))
	})
	r.Get("/play/api/{game}/choices", h.choices(logger))
	r.Post("/play/api/{game}/tables", h.create(logger))
	r.Get("/play/api/tables/{token}", h.view(logger))
	r.Post("/play/api/tables/{token}/actions", h.act(logger))
	r.Get("/play/tables/{token}/review", h.review(logger))
	r.Get("/play/tables/{token}/record", h.record(logger))
	return r
}

// writeProblem is the kit's: a Problem as its status, anything else a
// logged "internal error".
func writeProblem(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) {
	httpkit.WriteProblem(w, r, logger, err)
}

// guard sets the security headers of every answer, refuses a Host the
// listener is not reached by, and refuses the API to other origins: a
// page elsewhere must not play a person's seat.
func (h *Hub) guard(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			hd := w.Header()
			hd.Set("Content-Security-Policy", pageCSP)
			hd.Set("X-Content-Type-Options", "nosniff")
			hd.Set("Referrer-Policy", "no-referrer")
			hd.Set("Cache-Control", "no-store")
			sw := httpkit.NewStatusWriter(w)
			if err := h.checkHost(r); err != nil {
				writeProblem(sw, r, logger, err)
			} else if err := sameOrigin(r); err != nil {
				writeProblem(sw, r, logger, err)
			} else {
				next.ServeHTTP(sw, r)
			}
			if logger != nil {
				logger.Debug("play", "method", r.Method, "path", r.URL.Path, "status", sw.Status, "ms", time.Since(start).Milliseconds())
			}
		})
	}
}

// checkHost refuses a request whose Host is not a name this listener is
// reached by: a loopback name or address (localhost, 127.0.0.1, [::1]) or
// the address the connection came in on, with the listener's port; or
// one of the hub's Hosts (a bare name with or without the port, a
// name:port as given). A page of another site cannot use such a Host: a
// name that was re-pointed at this machine is still its own name.
func (h *Hub) checkHost(r *http.Request) error {
	host, port := splitHostPort(r.Host)
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	localIP, localPort := addrOf(local)
	for _, n := range h.cfg.Hosts {
		nh, np := splitHostPort(n)
		if strings.EqualFold(host, nh) && (np == port || np == "" && (port == "" || port == localPort)) {
			return nil
		}
	}
	if port == localPort || port == "" && localPort == "80" {
		if strings.EqualFold(host, "localhost") {
			return nil
		}
		if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || localIP != nil && ip.Equal(localIP)) {
			return nil
		}
	}
	return problem.New(problem.Forbidden, "this server is not %q: it answers to localhost, 127.0.0.1 and [::1] with its port%s (gamebot play -hosts names more)",
		r.Host, hostList(h.cfg.Hosts))
}

func hostList(hosts []string) string {
	if len(hosts) == 0 {
		return ""
	}
	return ", and to " + strings.Join(hosts, ", ")
}

// splitHostPort splits "name:port", "[::1]:port", "name" or "::1" (no
// port: "").
func splitHostPort(hp string) (host, port string) {
	if h, p, err := net.SplitHostPort(hp); err == nil {
		return h, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(hp, "["), "]"), ""
}

func addrOf(a net.Addr) (net.IP, string) {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP, strconv.Itoa(t.Port)
	}
	if a == nil {
		return nil, ""
	}
	h, p := splitHostPort(a.String())
	return net.ParseIP(h), p
}

// sameOrigin refuses a request a browser made for a page of another
// origin (its Origin header, or Sec-Fetch-Site for the requests that
// carry no Origin). Tools that send neither are served: they are not a
// browser's page acting for a person.
func sameOrigin(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" {
		host, ok := strings.CutPrefix(o, "http://")
		if !ok {
			host, ok = strings.CutPrefix(o, "https://")
		}
		if !ok || host != r.Host {
			return problem.New(problem.Forbidden, "requests from %q are refused: this table is served to %s only", o, r.Host)
		}
		return nil
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return problem.New(problem.Forbidden, "cross-site requests are refused")
	}
	return nil
}

// langCookie keeps the language a person chose with a page's switch.
const langCookie = "gamebot_lang"

// langOf is the language of a request: the page's switch, else the
// browser's Accept-Language.
func langOf(r *http.Request) i18n.Lang {
	choice := ""
	if ck, err := r.Cookie(langCookie); err == nil {
		choice = ck.Value
	}
	return i18n.Pick(choice, r.Header.Get("Accept-Language"))
}

func printerOf(r *http.Request) *i18n.Printer { return i18n.For(langOf(r)) }

// clientOf is the client a request comes from: its browser's cookie, and
// its address when it is not this machine.
func clientOf(r *http.Request) Client {
	var c Client
	if ck, err := r.Cookie(clientCookie); err == nil {
		c.Key = ck.Value
	}
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		if ip := net.ParseIP(h); ip != nil && !ip.IsLoopback() {
			c.Addr = ip.String()
		}
	}
	return c
}

// ensureClient gives a browser its cookie when it has none, and returns
// the client it now is.
func ensureClient(w http.ResponseWriter, r *http.Request) Client {
	c := clientOf(r)
	if c.Key == "" {
		c.Key = rand.Text()
		http.SetCookie(w, &http.Cookie{Name: clientCookie, Value: c.Key, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: 400 * 24 * 3600})
	}
	return c
}

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

func (h *Hub) lobby(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := ensureClient(w, r)
		lang := langOf(r)
		b, err := render(lobbyTemplate, lang, []string{"kit.lobby"}, pageData{Games: h.Games(), Lines: h.Tables(c, i18n.For(lang))})
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		writeHTML(w, b)
	}
}

func (h *Hub) page(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		g := h.Game(chi.URLParam(r, "game"))
		if g == nil {
			writeProblem(w, r, logger, problem.New(problem.NotFound, "no game %q: the lobby at /play lists them", chi.URLParam(r, "game")))
			return
		}
		ensureClient(w, r)
		writeHTML(w, h.pages[g.Name][langOf(r)])
	}
}

func (h *Hub) gameAsset(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		g := h.Game(chi.URLParam(r, "game"))
		name := chi.URLParam(r, "asset")
		if g == nil || g.Assets[name] == nil {
			writeProblem(w, r, logger, problem.New(problem.NotFound, "no file %s", r.URL.Path))
			return
		}
		asset(name, g.Assets[name])(w, r)
	}
}

func writeHTML(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

func (h *Hub) choices(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		g := h.Game(chi.URLParam(r, "game"))
		if g == nil {
			writeProblem(w, r, logger, problem.New(problem.NotFound, "no game %q", chi.URLParam(r, "game")))
			return
		}
		var v any = struct{}{}
		if g.Choices != nil {
			v = g.Choices()
		}
		httpkit.WriteJSON(w, http.StatusOK, v)
	}
}

func (h *Hub) create(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := httpkit.ReadBody(r, MaxBody, nil)
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		client := clientOf(r)
		client.P = printerOf(r)
		c, err := h.Create(chi.URLParam(r, "game"), b, client)
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		httpkit.WriteJSON(w, http.StatusCreated, c)
	}
}

// ViewBody is the answer carrying a seat's view of a table.
type ViewBody struct {
	Seq int `json:"seq"`
	// At is when the table last changed its view (Unix milliseconds, the
	// server's clock): a scripted client on the same machine measures
	// from it how long a bot's move took to reach it.
	At int64 `json:"at"`
	// Over: the table's game is over (its Summary's).
	Over bool `json:"over"`
	// Review: the review page has something to show.
	Review bool `json:"review"`
	View   any  `json:"view"`
	// Valid, asked for with ?valid=1, are the actions the seat may send
	// now (a Scripted table's).
	Valid []any `json:"valid,omitempty"`
	// Links, to the creator only, are the table's links to pass on.
	Links *Links `json:"links,omitempty"`
}

// body completes a view's answer: whether the game is over, the links
// for the creator, and the valid actions when the request asks.
func body(r *http.Request, at At, b ViewBody) ViewBody {
	s := at.Table.Summary(nil)
	b.Over, b.Review = s.Over, s.Review
	if at.Creator {
		l := at.Links()
		b.Links = &l
	}
	if s, ok := at.Table.(Scripted); ok && r.URL.Query().Get("valid") == "1" {
		b.Valid = s.Valid(at.Seat)
		if b.Valid == nil {
			b.Valid = []any{}
		}
	}
	return b
}

func (h *Hub) view(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		after := -1
		if v := r.URL.Query().Get("after"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < -1 {
				writeProblem(w, r, logger, problem.Malformedf("after=%q: want a version number", v))
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
		token := chi.URLParam(r, "token")
		p := printerOf(r)
		seq, v, changed, err := h.Wait(ctx, token, after, p)
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		at, err := h.Table(token)
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		httpkit.WriteJSON(w, http.StatusOK, body(r, at, ViewBody{Seq: seq, At: changed.UnixMilli(), View: v}))
	}
}

// ActionBody is what a page posts: the version it decided on and the
// game's action.
type ActionBody struct {
	Seq    *int            `json:"seq"`
	Action json.RawMessage `json:"action"`
}

func (h *Hub) act(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := httpkit.ReadBody(r, MaxBody, nil)
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		at, err := h.Table(chi.URLParam(r, "token"))
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		var a ActionBody
		if err := problem.DecodeStrict(b, &a); err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		if a.Seq == nil || len(a.Action) == 0 {
			writeProblem(w, r, logger, problem.Malformedf(`an action is {"seq": the version it was decided on, "action": {…}}`))
			return
		}
		viewer := Viewer{Seat: at.Seat, P: printerOf(r), Since: *a.Seq}
		if err := at.Table.Act(viewer, *a.Seq, a.Action); err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		seq, v := at.Table.View(viewer)
		httpkit.WriteJSON(w, http.StatusOK, body(r, at, ViewBody{Seq: seq, At: time.Now().UnixMilli(), View: v}))
	}
}

func (h *Hub) review(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		at, err := h.Table(chi.URLParam(r, "token"))
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		rv, ok := at.Table.(Reviewer)
		if !ok {
			writeProblem(w, r, logger, problem.New(problem.NotFound, "this game has no review page"))
			return
		}
		page, err := rv.Review(printerOf(r))
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		w.Header().Set("Content-Security-Policy", reviewCSP)
		writeHTML(w, page)
	}
}

func (h *Hub) record(logger *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		at, err := h.Table(chi.URLParam(r, "token"))
		if err != nil {
			writeProblem(w, r, logger, err)
			return
		}
		rc, ok := at.Table.(Recorder)
		if !ok {
			writeProblem(w, r, logger, problem.New(problem.NotFound, "this game keeps no record"))
			return
		}
		name, data, err := rc.Record()
		if err != nil {
			writeProblem(w, r, logger, err)
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
}
