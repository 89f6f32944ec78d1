//go:build race

package stdengine

const raceEnabled = true
