package main

import (
	"fmt"

	battleshiptable "github.com/botarena/gamebot/battleship/table"
	giretratable "github.com/botarena/gamebot/giretra/table"
	"github.com/botarena/gamebot/internal/table"
	othellotable "github.com/botarena/gamebot/othello/table"
)

// playGames are the games of gamebot play, each from its own house.
func playGames(c playConfig) ([]*table.Game, error) {
	engines := othellotable.OurEngines()
	for _, spec := range c.othello {
		e, err := othellotable.ParseEngine(spec)
		if err != nil {
			return nil, fmt.Errorf("-othello-engine: %w", err)
		}
		engines = append(engines, e)
	}
	othello, err := othellotable.Game(othellotable.Config{Engines: engines})
	if err != nil {
		return nil, err
	}
	hosts, err := c.botHostsOf()
	if err != nil {
		return nil, err
	}
	bots, err := c.botsDirOf()
	if err != nil {
		return nil, err
	}
	return []*table.Game{
		giretratable.Config{BotsDir: bots, BotHosts: hosts}.Game(),
		battleshiptable.Game(battleshiptable.Config{BotHosts: hosts}),
		othello,
	}, nil
}
