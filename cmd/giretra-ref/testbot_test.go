package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/agents"
	"github.com/botarena/gamebot/giretra/wire"
)

// testBot is a bot server for the tests: it decodes the referee's requests
// with the wire package (both dialects), lets an in-process agent decide,
// and records what it saw so the tests can check the protocol.
type testBot struct {
	agent string

	// fault, when set, may replace the answer to a session call:
	// handled=true sends status and body instead.
	fault func(endpoint string, s *botSession, n int) (status int, body string, handled bool)
	delay time.Duration // added to every decision

	mu       sync.Mutex
	sessions map[string]*botSession
	order    []string // session ids in creation order
	creates  []map[string]any
	problems []string
	conns    map[string]bool
	deletes  int
	calls    int
	bodies   []string // decision request bodies as received
}

type botSession struct {
	id     string
	seat   giretra.Position
	player giretra.Player
	calls  []string // endpoints in order
}

func newTestBot(agent string) *testBot {
	return &testBot{agent: agent, sessions: map[string]*botSession{}, conns: map[string]bool{}}
}

func (b *testBot) problem(format string, args ...any) {
	b.problems = append(b.problems, fmt.Sprintf(format, args...))
}

func (b *testBot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.conns[r.RemoteAddr] = true
	path := strings.TrimPrefix(r.URL.Path, "/")
	if r.Method == http.MethodGet && path == "health" {
		w.WriteHeader(http.StatusOK)
		return
	}
	if r.Method == http.MethodDelete && strings.HasPrefix(path, "api/sessions/") {
		b.deletes++
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if r.ContentLength <= 0 || len(r.TransferEncoding) > 0 {
		b.problem("%s: no Content-Length (chunked %v)", path, r.TransferEncoding)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		b.problem("%s: Content-Type %q", path, ct)
	}
	if bytes.Contains(body, []byte("null")) {
		b.problem("%s: null in body", path)
	}
	if path == "api/sessions" {
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			b.problem("create: %v", err)
		}
		if req["matchId"] == "__smoke_test__" {
			writeJSONAnswer(w, map[string]string{"sessionId": "smoke"})
			return
		}
		b.creates = append(b.creates, req)
		seat := giretra.Bottom
		if p, ok := req["position"].(string); ok {
			seat, _ = giretra.ParsePosition(p)
		}
		seed := uint64(len(b.order))
		pl, _ := agents.New(b.agent, rand.New(rand.NewPCG(seed, 1)))
		s := &botSession{id: fmt.Sprintf("s%d", len(b.order)+1), seat: seat, player: pl}
		b.sessions[s.id] = s
		b.order = append(b.order, s.id)
		writeJSONAnswer(w, map[string]string{"sessionId": s.id})
		return
	}
	rest, ok := strings.CutPrefix(path, "api/sessions/")
	id, endpoint, ok2 := strings.Cut(rest, "/")
	s := b.sessions[id]
	if !ok || !ok2 || s == nil {
		b.problem("unknown path %s", path)
		http.NotFound(w, r)
		return
	}
	s.calls = append(s.calls, endpoint)
	b.calls++
	if strings.HasPrefix(endpoint, "choose-") {
		b.bodies = append(b.bodies, string(body))
	}
	if b.fault != nil {
		if status, ans, handled := b.fault(endpoint, s, len(s.calls)); handled {
			w.WriteHeader(status)
			_, _ = io.WriteString(w, ans)
			return
		}
	}
	if !strings.HasPrefix(endpoint, "notify/") && b.delay > 0 {
		b.mu.Unlock()
		time.Sleep(b.delay)
		b.mu.Lock()
	}
	ctx := context.Background()
	switch endpoint {
	case "choose-cut":
		c, _ := s.player.ChooseCut(ctx, s.seat, nil)
		writeJSONAnswer(w, wire.CutAnswer{Position: c.Position, FromTop: c.FromTop})
	case "choose-negotiation-action":
		bid, err := wire.DecodeBid(body, s.seat)
		if err != nil {
			b.problem("bid: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		a, _ := s.player.ChooseAction(ctx, &bid.View)
		writeJSONAnswer(w, wire.FromValidAction(a))
	case "choose-card":
		play, err := wire.DecodePlay(body, s.seat)
		if err != nil {
			b.problem("card: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c, _ := s.player.ChooseCard(ctx, &play.View)
		writeJSONAnswer(w, wire.FromCard(c))
	default:
		name, _ := strings.CutPrefix(endpoint, "notify/")
		k, ok := giretra.ParseEventKind(name)
		if !ok {
			b.problem("unknown endpoint %s", endpoint)
			http.NotFound(w, r)
			return
		}
		if n, err := wire.DecodeNotification(k, body); err == nil {
			_ = s.player.Notify(ctx, s.seat, &n.Event)
		} else {
			b.problem("%s: %v", name, err)
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

func writeJSONAnswer(w http.ResponseWriter, v any) {
	js, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(js)
}

// serveTestBot is the test binary run as a launched bot (TestMain): it
// serves a testBot on PORT and logs what it sees to $TESTBOT_DIR/bot.log.
func serveTestBot() {
	f, err := os.OpenFile(filepath.Join(os.Getenv("TESTBOT_DIR"), "bot.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		os.Exit(3)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(f, format+"\n", args...) }
	launcher, _ := strconv.Atoi(os.Getenv("LAUNCHER_PID"))
	if launcher == os.Getppid() {
		logf("LAUNCHER_PID ok")
	}
	go func() { // the templates' watchdog: exit when the launcher is gone
		for range time.Tick(time.Second) {
			if os.Getppid() != launcher {
				os.Exit(0)
			}
		}
	}()
	agent := os.Getenv("TESTBOT_AGENT")
	if agent == "" {
		agent = "random"
	}
	bot := newTestBot(agent)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/sessions" && bytes.Contains(body, []byte("__smoke_test__")):
			logf("smoke create")
		case r.Method == http.MethodDelete:
			logf("smoke delete %s", r.URL.Path)
		case r.Method == http.MethodPost:
			if _, ep, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/api/sessions/"), "/"); ok {
				logf("%s", ep)
			}
		}
		bot.ServeHTTP(w, r)
	})
	srv := &http.Server{Addr: "127.0.0.1:" + os.Getenv("PORT"), Handler: h, ReadHeaderTimeout: 5 * time.Second}
	_ = srv.ListenAndServe()
}
