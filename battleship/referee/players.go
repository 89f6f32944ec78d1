package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/wire"
)

// player answers arena messages with raw bytes (the referee validates them
// like the arena does).
type player interface {
	call(ctx context.Context, body []byte) ([]byte, error)
	Name() string
}

// httpPlayer posts to a URL with the arena's headers and time limit.
type httpPlayer struct {
	url    string
	label  string
	client *http.Client
}

func newHTTPPlayer(url, label string, timeout time.Duration) *httpPlayer {
	return &httpPlayer{url: url, label: label, client: &http.Client{
		Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // the arena does not follow redirects
		},
	}}
}

func (p *httpPlayer) Name() string { return p.label }

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

// agentPlayer serves an agents.Agent over the arena's messages, so the HTTP duel
// can pit a URL (or the production edge, "self") against the referee's
// agents. Games are keyed by (game-id, player-index), as a real bot must.
type agentPlayer struct {
	a     agents.Agent
	seed  uint64
	mu    sync.Mutex
	games map[agentGameKey]*agentPlayerGame
}

type agentGameKey struct {
	id   string
	seat int
}

type agentPlayerGame struct {
	g          agents.Game
	yours, his []battleship.Strike // the last history seen
}

func newAgentPlayer(a agents.Agent, seed uint64) *agentPlayer {
	return &agentPlayer{a: a, seed: seed, games: make(map[agentGameKey]*agentPlayerGame)}
}

func (p *agentPlayer) Name() string { return p.a.Name() }

func (p *agentPlayer) game(req *wire.Request) *agentPlayerGame {
	k := agentGameKey{id: req.GameID, seat: req.PlayerIndex}
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.games[k]
	if g == nil {
		id, _ := strconv.ParseUint(req.GameID, 10, 64)
		rng := rand.New(rand.NewPCG(p.seed, id<<1|uint64(req.PlayerIndex&1)))
		g = &agentPlayerGame{g: p.a.NewGame(req.Opponent, req.Rules, rng)}
		p.games[k] = g
	}
	return g
}

func (p *agentPlayer) call(_ context.Context, body []byte) ([]byte, error) {
	req, err := wire.Decode(body)
	if err != nil {
		return nil, err
	}
	if req.BoardErr != nil {
		return nil, fmt.Errorf("%s: %w", p.a.Name(), req.BoardErr)
	}
	g := p.game(req)
	switch req.Action {
	case "init":
		ships, err := g.g.Place()
		if err != nil {
			return nil, err
		}
		boats := make([]string, len(ships))
		for i, s := range ships {
			boats[i] = s.String()
		}
		return json.Marshal(wire.InitAnswer{Name: p.a.Name(), Boats: boats})
	case "play-turn":
		g.yours, g.his = req.Yours, req.His
		x, y := g.g.Shoot(req.Yours, req.His)
		return json.Marshal(wire.TurnAnswer{Play: battleship.FormatTarget(x, y)})
	}
	return []byte(`{}`), nil
}

// gameOver ends game id at seat with the last histories it was sent.
func (p *agentPlayer) gameOver(id, seat int) {
	k := agentGameKey{id: strconv.Itoa(id), seat: seat}
	p.mu.Lock()
	g := p.games[k]
	delete(p.games, k)
	p.mu.Unlock()
	if g != nil {
		g.g.End(g.yours, g.his)
	}
}
