// Command battleref is a local referee for botsArena battleship. It drives
// bots over HTTP exactly as the arena does (same messages, numbers as
// strings, same validation: any bad answer loses at once) and reports
// strength, validity and latency.
//
//	battleref -mode target -bot self -n 1000              # shots to sink random fleets
//	battleref -mode duel -bot self -opponent stupid -n 1000
//	battleref -mode configs -bot self                     # every odd board of docs/battleship.md §4
//	battleref -mode duel -bot http://host:8080/battleship -opponent self
//	battleref -mode calibrate -n 2000 -seed 1             # in-process shooters, see below
//	battleref -mode duel-inproc -opponent dreadnought -n 20 -record rec
//	battleref show rec/duel-0003.jsonl                    # or: show rec -game 3
//	battleref report rec -o replay.html
//
// -record DIR (duel modes) writes one JSON Lines record per game: both
// fleets, every shot with its result (and latency over HTTP), the winner
// and any invalid answer (format: battleship/record). show replays
// a game in the terminal; report makes one self-contained HTML page: the
// win rate with its Wilson 95% interval, the shots to win, the latencies
// and a duel viewer that steps through a game shot by shot.
//
// A player (-bot, -opponent) is named as battleship/players reads it:
// "self" (this module's engine: behind an in-process HTTP server in the
// HTTP modes, in process in duel-inproc), one of the referee's agents by
// name ("stupid", "dg", "dreadnought"…), or a URL; "LABEL=" before any of
// them names it in reports and records.
//
// -mode calibrate needs no bot: it plays the target mode's hidden fleets
// in-process with five shooters: the engine with the arena's information
// ("self"), the engine told which ship each "hit and sunk" sank
// ("self-told"), a plain probability-density baseline told the same
// ("density-told"), and the duel opponents dg and dreadnought as the
// arena informs them, to show what the unnamed sunk ship costs and how
// the engine compares with the textbook shooter.
//
// This command parses the flags and prints the report; the runs are
// battleship/referee's.
//
// Every mode is reproducible: -seed (default 1) fixes the hidden fleets;
// -seed 0 draws a seed and prints it. Interrupted (SIGINT, SIGTERM), a run
// reports the games finished so far.
package main

import (
	"github.com/botarena/gamebot/internal/cli"
)

func main() { cli.Main("battleref", run) }
