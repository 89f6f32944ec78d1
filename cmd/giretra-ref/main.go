// Command giretra-ref is a local Giretra referee: it plays full matches
// exactly as the Giretra engine does (call order, payloads, timeouts,
// bot.meta.json launch) between bot servers and in-process opponents
// modelled on the engine's agents, to validate a bot and measure it. It
// takes giretra-manage's commands as the engine's documentation spells
// them, and adds game records, their replay, an HTML report and a
// regression gate:
//
//	giretra-ref validate <bot> [flags]
//	giretra-ref benchmark [bot-a] [bot-b] [flags]
//	giretra-ref swiss [bots…] [flags]
//	giretra-ref compare -baseline A -candidate B [opponents…] [flags]
//	giretra-ref show <record> [-match N] [-deal N]
//	giretra-ref report <record folder> -o report.html
//
// A bot is a player spec of giretra/players: an http(s) URL of a running
// server, a folder holding a bot.meta.json (launched like the engine
// launches it), an engine agent (RandomPlayer, CalculatingPlayer,
// DeterministicPlayer, BadPlayer or their display names), one of our
// in-process agents (bad, random, calculating, eva, noisy-eva, bold-eva), our bot
// (bot[:OPTIONS]), or a bot of external-bots/ by name. Run "giretra-ref
// help" for more.
package main

import (
	"errors"

	"github.com/botarena/gamebot/internal/cli"
)

// errFailed is a run that failed what it checks (violations, crashes, an
// aborted benchmark, a worse candidate): its report says why.
var errFailed = errors.New("FAIL")

// main exits as the engine's tool does: 0 pass, 1 fail (violations,
// crashes, an aborted benchmark), 2 infrastructure, usage or an
// interrupted run.
func main() {
	cli.Main("giretra-ref", run, cli.Status{Err: errFailed, Code: 1}, cli.Status{Code: 2})
}
