// Package refereetest is a Giretra bot server for the tests of the
// referee and of its command line: it decodes the referee's requests with
// the wire package (both dialects), lets an in-process agent decide, and
// records what it saw so that a test can check the protocol. Run as a
// process (Serve), it is a bot a bot.meta.json launches.
package refereetest

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

// Bot is a bot server playing an agent of giretra/agents. Lock it to read
// what it recorded while it serves.
type Bot struct {
	Agent string

	// Fault, when set, may replace the answer to the nth call of a
	// session: handled=true sends status and body instead.
	Fault func(endpoint string, s *Session, n int) (status int, body string, handled bool)
	Delay time.Duration // added to every decision

	sync.Mutex
	Sessions map[string]*Session
	Order    []string // session ids in creation order
	Creates  []map[string]any
	Problems []string // what the referee did wrong
	Conns    map[string]bool
	Deletes  int
	Calls    int
	Bodies   []string // decision request bodies as received
}

// Session is one game session of the bot.
type Session struct {
	ID     string
	Seat   giretra.Position
	player giretra.Player
	Calls  []string // endpoints in order
}

// NewBot is a bot playing agent.
func NewBot(agent string) *Bot {
	return &Bot{Agent: agent, Sessions: map[string]*Session{}, Conns: map[string]bool{}}
}

func (b *Bot) problem(format string, args ...any) {
	b.Problems = append(b.Problems, fmt.Sprintf(format, args...))
}

func (b *Bot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.Lock()
	defer b.Unlock()
	b.Conns[r.RemoteAddr] = true
	path := strings.TrimPrefix(r.URL.Path, "/")
	if r.Method == http.MethodGet && path == "health" {
		w.WriteHeader(http.StatusOK)
		return
	}
	if r.Method == http.MethodDelete && strings.HasPrefix(path, "api/sessions/") {
		b.Deletes++
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
		b.create(w, body)
		return
	}
	rest, ok := strings.CutPrefix(path, "api/sessions/")
	id, endpoint, ok2 := strings.Cut(rest, "/")
	s := b.Sessions[id]
	if !ok || !ok2 || s == nil {
		b.problem("unknown path %s", path)
		http.NotFound(w, r)
		return
	}
	s.Calls = append(s.Calls, endpoint)
	b.Calls++
	if strings.HasPrefix(endpoint, "choose-") {
		b.Bodies = append(b.Bodies, string(body))
	}
	if b.Fault != nil {
		if status, ans, handled := b.Fault(endpoint, s, len(s.Calls)); handled {
			w.WriteHeader(status)
			_, _ = io.WriteString(w, ans)
			return
		}
	}
	if !strings.HasPrefix(endpoint, "notify/") && b.Delay > 0 {
		b.Unlock()
		time.Sleep(b.Delay)
		b.Lock()
	}
	b.answer(w, r, s, endpoint, body)
}

// create answers a session creation, and the smoke test's.
func (b *Bot) create(w http.ResponseWriter, body []byte) {
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		b.problem("create: %v", err)
	}
	if req["matchId"] == "__smoke_test__" {
		writeJSONAnswer(w, map[string]string{"sessionId": "smoke"})
		return
	}
	b.Creates = append(b.Creates, req)
	seat := giretra.Bottom
	if p, ok := req["position"].(string); ok {
		seat, _ = giretra.ParsePosition(p)
	}
	seed := uint64(len(b.Order))
	pl, _ := agents.New(b.Agent, rand.New(rand.NewPCG(seed, 1)))
	s := &Session{ID: fmt.Sprintf("s%d", len(b.Order)+1), Seat: seat, player: pl}
	b.Sessions[s.ID] = s
	b.Order = append(b.Order, s.ID)
	writeJSONAnswer(w, map[string]string{"sessionId": s.ID})
}

// answer decides with the session's agent, or passes it a notification.
func (b *Bot) answer(w http.ResponseWriter, r *http.Request, s *Session, endpoint string, body []byte) {
	ctx := context.Background()
	switch endpoint {
	case "choose-cut":
		c, _ := s.player.ChooseCut(ctx, s.Seat, nil)
		writeJSONAnswer(w, wire.CutAnswer{Position: c.Position, FromTop: c.FromTop})
	case "choose-negotiation-action":
		bid, err := wire.DecodeBid(body, s.Seat)
		if err != nil {
			b.problem("bid: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		a, _ := s.player.ChooseAction(ctx, &bid.View)
		writeJSONAnswer(w, wire.FromValidAction(a))
	case "choose-card":
		play, err := wire.DecodePlay(body, s.Seat)
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
			_ = s.player.Notify(ctx, s.Seat, &n.Event)
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

// Serve is a test binary run as a launched bot (from its TestMain): it
// serves a Bot playing $TESTBOT_AGENT (default random) on PORT, logs what
// it sees to $TESTBOT_DIR/bot.log, and exits when its launcher
// ($LAUNCHER_PID) is gone.
func Serve() {
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
	bot := NewBot(agent)
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
