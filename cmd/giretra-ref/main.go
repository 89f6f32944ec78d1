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
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode maps run's error to the engine's exit statuses: 0 pass, 1 fail
// (violations, crashes, an aborted benchmark), 2 infrastructure or usage.
func exitCode(err error, stderr *os.File) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errFailed) {
		return 1
	}
	fmt.Fprintln(stderr, "giretra-ref:", err)
	return 2
}
