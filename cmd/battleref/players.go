package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/botarena/gamebot/battleship/wire"
	"io"
	"log/slog"
	"math/rand/v2"
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

// stupidPlayer imitates the arena's stupidIA: each ship is dropped at a
// random position and orientation until it fits (stupidIA's goto loop; on
// an impossible fleet it never answers, here: it gives up like a timeout),
// and each shot is uniformly random, repeats included.
type stupidPlayer struct{}

func (stupidPlayer) name() string { return "stupid" }

func (stupidPlayer) call(ctx context.Context, body []byte) ([]byte, error) {
	msg, err := wire.Decode(body)
	if err != nil {
		return nil, err
	}
	if msg.BoardErr != nil {
		return nil, fmt.Errorf("stupid: %w", msg.BoardErr)
	}
	w, h := msg.Rules.W, msg.Rules.H
	switch msg.Action {
	case "init":
		occ := make([]bool, w*h)
		var boats []string
		for l := battleship.MaxLen; l >= 1; l-- {
			for range msg.Rules.Fleet[l] {
				placed := false
				for range 100_000 {
					vert := rand.IntN(2) == 1
					x, y := rand.IntN(w), rand.IntN(h)
					s := battleship.Ship{X: x, Y: y, L: l, Vertical: vert}
					if fitsFree(occ, w, h, s) {
						markShip(occ, w, s)
						boats = append(boats, s.String())
						placed = true
						break
					}
				}
				if !placed {
					return nil, errors.New("stupid: no placement (timeout)")
				}
			}
		}
		return json.Marshal(wire.InitAnswer{Name: "stupidIA", Boats: boats})
	case "play-turn":
		return json.Marshal(wire.TurnAnswer{Play: battleship.FormatTarget(rand.IntN(w), rand.IntN(h))})
	}
	return []byte(`{}`), nil
}

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
