package referee

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/agents"
	"github.com/botarena/gamebot/battleship/players"
	"github.com/botarena/gamebot/battleship/remote"
	"github.com/botarena/gamebot/battleship/wire"
)

// contestant is a player of the HTTP modes, answering the arena's
// messages: a bot server, or an in-process agent behind the messages.
type contestant struct {
	name  string // as the registry names it (reports, records)
	label string // as the other seat is told it
	call  remote.Call
	http  bool         // a bot server: its calls are timed in records
	agent *agentPlayer // an agent: told when a game ends
	stop  func()
}

// open resolves a player of the HTTP modes: "self" is the production
// server on a loopback port, an agent is served the arena's messages in
// process, and a URL is called as the arena calls it.
func (h HTTP) open(text string, seed uint64) (*contestant, error) {
	e, err := players.Resolve(text)
	if err != nil {
		return nil, err
	}
	c := &contestant{name: e.Name, stop: func() {}}
	switch {
	case e.Self():
		if h.Self == nil {
			return nil, fmt.Errorf("player %q: no server to start it", text)
		}
		url, stop, err := h.Self()
		if err != nil {
			return nil, err
		}
		c.label, c.call, c.http, c.stop = e.Name, remote.New(url, h.timeout()), true, stop
	case e.URL != "":
		c.label, c.call, c.http = e.Name, remote.New(e.URL, h.timeout()), true
	default:
		a, err := agents.New(e.Agent)
		if err != nil {
			return nil, err
		}
		c.agent = newAgentPlayer(a, seed)
		c.label, c.call = a.Name(), c.agent.call
	}
	return c, nil
}

// seat is c at a game gameID, the other seat named opponent.
func (c *contestant) seat(gameID int, opponent string) battleship.Player {
	return remote.Seat{Call: c.call, GameID: gameID, Opponent: opponent}
}

// gameOver tells an agent that game gameID is over at seat (the arena
// tells real bots nothing).
func (c *contestant) gameOver(gameID, seat int) {
	if c.agent != nil {
		c.agent.gameOver(gameID, seat)
	}
}

// agentPlayer serves an agents.Agent over the arena's messages, so the
// HTTP modes can pit a URL (or the production edge, "self") against the
// referee's agents. Games are keyed by (game-id, player-index), as a real
// bot must key them.
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
