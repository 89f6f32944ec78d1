//go:build race

package othello

const raceEnabled = true
