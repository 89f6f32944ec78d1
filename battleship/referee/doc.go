// Package referee is battleref's logic: it plays bots as botsarena does,
// over HTTP with the arena's messages and judging (battleship/remote), or
// in-process agents (battleship/agents), each game by battleship.Play.
// One function a command, each with its config: Target (shots to sink
// hidden fleets), Duel (two bots over HTTP, seats alternating),
// DuelInproc (two agents, fast), Configs (the odd boards of
// docs/battleship.md §4) and Calibrate (shooters compared on the same
// fleets). Each returns a Report; duels can be recorded
// (battleship/record). Every run is reproducible from its seed.
package referee
