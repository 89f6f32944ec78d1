package main

import "github.com/botarena/gamebot/internal/table"

// playGames are the games of gamebot play, each from its own house.
func playGames() []*table.Game {
	return []*table.Game{}
}
