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
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// Once the first signal has asked run to wind down, a second one kills.
	context.AfterFunc(ctx, stop)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode maps run's error to the engine's exit statuses: 0 pass, 1 fail
// (violations, crashes, an aborted benchmark), 2 infrastructure, usage or
// an interrupted run.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, errFailed) {
		return 1
	}
	fmt.Fprintln(stderr, "giretra-ref:", err)
	return 2
}
