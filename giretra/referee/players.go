package referee

import "github.com/botarena/gamebot/giretra/players"

// The registry of players is giretra/players. These names of it remain
// here for gamebot play's wiring and the table's game list, which import
// the referee for them; new code imports players.

// ExternalBot is players.ExternalBot.
type ExternalBot = players.ExternalBot

// NewRegistry is players.NewRegistry.
func NewRegistry(botsDir string, warn func(msg string)) *players.Registry {
	return players.NewRegistry(botsDir, warn)
}

// EngineAgents is players.EngineAgents.
func EngineAgents() [][2]string { return players.EngineAgents() }

// FindBotsDir is players.FindBotsDir.
func FindBotsDir() string { return players.FindBotsDir() }
