package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/server"
	"github.com/prometheus/client_golang/prometheus"
)

// player answers arena messages with raw bytes (the referee validates them
// like the arena does).
type player interface {
	call(ctx context.Context, body []byte) ([]byte, error)
	name() string
}

// httpPlayer posts to a URL with the arena's headers and 10 s budget.
type httpPlayer struct {
	url    string
	label  string
	client *http.Client
}

func newHTTPPlayer(url, label string) *httpPlayer {
	return &httpPlayer{url: url, label: label, client: &http.Client{
		Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // the arena does not follow redirects
		},
	}}
}

func (p *httpPlayer) name() string { return p.label }

func (p *httpPlayer) call(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "*/*")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, 16<<20))
}

// selfServer serves the engine on a loopback port through the production
// server (its battleship endpoint), so a duel exercises the real edge.
type selfServer struct {
	srv *http.Server
	url string
}

func startSelf(bot *battleship.Bot) (*selfServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := server.New(slog.New(slog.DiscardHandler), server.Config{}, prometheus.NewRegistry(), server.Deps{Battleship: bot})
	s := &selfServer{
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(slog.DiscardHandler, slog.LevelError)},
		url: "http://" + ln.Addr().String() + "/battleship",
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

func (s *selfServer) close() { _ = s.srv.Close() }

func fitsFree(occ []bool, w, h int, s battleship.Ship) bool {
	x2, y2 := s.End()
	if x2 >= w || y2 >= h {
		return false
	}
	for i := range s.L {
		c := s.Y*w + s.X + i
		if s.Vertical {
			c = (s.Y+i)*w + s.X
		}
		if occ[c] {
			return false
		}
	}
	return true
}

func markShip(occ []bool, w int, s battleship.Ship) {
	for i := range s.L {
		c := s.Y*w + s.X + i
		if s.Vertical {
			c = (s.Y+i)*w + s.X
		}
		occ[c] = true
	}
}
