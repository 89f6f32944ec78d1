//go:build race

package std

const raceEnabled = true
