//go:build !race

package stdengine

const raceEnabled = false
