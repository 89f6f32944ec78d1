package main

import (
	battleshiptable "github.com/botarena/gamebot/battleship/table"
	"github.com/botarena/gamebot/internal/table"
)

// playGames are the games of gamebot play, each from its own house.
func playGames() []*table.Game {
	return []*table.Game{
		battleshiptable.Game(battleshiptable.Config{}),
	}
}
