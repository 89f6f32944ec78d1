// Package tabletest serves a play hub for a game's table tests: every
// answer to the tables' API is kept, as the page of the person's seat
// received it (what a test of hidden information reads through), and
// requests are made as a page makes them.
package tabletest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/botarena/gamebot/internal/table"
)

// Server is a hub behind an httptest server.
type Server struct {
	*httptest.Server
	Hub *table.Hub

	mu   sync.Mutex
	sent []Sent
}

// Sent is one answer of the tables' API (/play/api/…, /play/tables/…).
type Sent struct {
	Path   string
	Status int
	Body   []byte
}

// New serves hub until the test ends (the hub is closed then too).
func New(t testing.TB, hub *table.Hub) *Server {
	t.Helper()
	s := &Server{Hub: hub}
	h := hub.Handler(nil)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &capture{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(c, r)
		if strings.HasPrefix(r.URL.Path, "/play/api/") || strings.HasPrefix(r.URL.Path, "/play/tables/") {
			s.mu.Lock()
			s.sent = append(s.sent, Sent{Path: r.URL.Path, Status: c.status, Body: bytes.Clone(c.buf.Bytes())})
			s.mu.Unlock()
		}
	}))
	t.Cleanup(func() {
		hub.Close()
		s.Close()
	})
	return s
}

// Sent are the answers so far, in the order they were written.
func (s *Server) Sent() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// Call makes a request as a page does (JSON when there is a body) and
// returns the status and the body.
func (s *Server) Call(t testing.TB, method, path, body string) (int, []byte) {
	t.Helper()
	return s.CallIn(t, "", method, path, body)
}

// CallIn is Call from a browser set to lang (its Accept-Language; "":
// none sent).
func (s *Server) CallIn(t testing.TB, lang, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// Create sets a table of game up from its setup options and returns the
// creator's token (the table's API is /play/api/tables/{token}).
func (s *Server) Create(t testing.TB, game, options string) string {
	t.Helper()
	return s.CreateTable(t, game, options).Token
}

// CreateTable sets a table of game up and returns what its creator is
// given: their token and link, and the links to pass on.
func (s *Server) CreateTable(t testing.TB, game, options string) table.Created {
	t.Helper()
	code, b := s.Call(t, "POST", "/play/api/"+game+"/tables", options)
	if code != http.StatusCreated {
		t.Fatalf("creating %s: %d %s", options, code, b)
	}
	var c table.Created
	if err := json.Unmarshal(b, &c); err != nil || c.Token == "" {
		t.Fatalf("create answered %s", b)
	}
	return c
}

// Token is the token of a table's link (its ?t=).
func Token(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	return u.Query().Get("t")
}

// capture keeps a copy of what it writes.
type capture struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (c *capture) WriteHeader(code int) { c.status = code; c.ResponseWriter.WriteHeader(code) }

func (c *capture) Write(b []byte) (int, error) {
	c.buf.Write(b)
	return c.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (c *capture) Unwrap() http.ResponseWriter { return c.ResponseWriter }
