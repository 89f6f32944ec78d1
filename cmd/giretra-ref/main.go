// Command giretra-ref is a local Giretra referee: it plays full matches
// exactly as the Giretra engine does (call order, payloads, timeouts,
// bot.meta.json launch) between bot servers and in-process opponents
// modelled on the engine's agents, to validate a bot and measure it.
//
//	giretra-ref validate [flags] <bot>
//	giretra-ref benchmark [flags] <bot-a> <bot-b>
//
// A bot is an http(s) URL of a running server, a folder holding a
// bot.meta.json (launched like the engine launches it), or one of the
// in-process agents random, calculating and eva. Run "giretra-ref help"
// for the flags.
package main

import (
	"github.com/botarena/gamebot/internal/cli"
)

// main exits as the engine's tool does: 0 pass, 1 fail (violations,
// crashes, an aborted benchmark), 2 infrastructure, usage or an
// interrupted run.
func main() { cli.Main("giretra-ref", run, cli.Status{Err: errFailed, Code: 1}, cli.Status{Code: 2}) }
