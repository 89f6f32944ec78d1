package main

import (
	battleshiptable "github.com/botarena/gamebot/battleship/table"
	giretratable "github.com/botarena/gamebot/giretra/table"
	"github.com/botarena/gamebot/internal/table"
)

// playGames are the games of gamebot play, each from its own house.
func playGames() []*table.Game {
	return []*table.Game{
		giretratable.Game(),
		battleshiptable.Game(battleshiptable.Config{}),
	}
}
