//go:build !race

package othello

const raceEnabled = false
