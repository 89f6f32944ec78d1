// Package cli is the one main of every command: run(ctx, args, getenv,
// stdin, stdout, stderr) with a context cancelled on SIGINT or SIGTERM
// (long runs then report what they have; a second signal kills at once),
// and the error turned into an exit status. A command reaches the process
// only through these parameters, so its tests hand it their own
// environment, input and outputs.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Run is a command's body: its arguments (without the program name), the
// environment (os.Getenv in Main), standard input and outputs.
type Run func(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error

// Env is a getenv of the variables in kv only (nil: an empty
// environment), for tests.
func Env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// Status maps an error to an exit status without a message: the command
// has already said why (a FAIL report, a rejected token). A Status with a
// nil Err sets the status of every other error (1 by default), which is
// printed as "name: err" on stderr.
type Status struct {
	Err  error
	Code int
}

// Main runs run with the process's arguments and exits: 0 when it returns
// nil, else the status statuses give it.
func Main(name string, run Run, statuses ...Status) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(Code(name, err, os.Stderr, statuses...))
}

// Code is Main's exit status for err (tests call it): 0 for nil and for
// flag.ErrHelp.
func Code(name string, err error, stderr io.Writer, statuses ...Status) int {
	// A help request (-h) printed the usage: that is an answer, not a
	// failure.
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	other := 1
	for _, s := range statuses {
		if s.Err == nil {
			other = s.Code
		} else if errors.Is(err, s.Err) {
			return s.Code
		}
	}
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	return other
}

// ParseInterleaved parses flags and positional arguments in any order
// ("show rec.jsonl -game 3" as well as "show -game 3 rec.jsonl") and
// returns the positional ones, in order.
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// ParseOne is ParseInterleaved for a command that takes exactly one
// positional argument (what names it); any other count prints the usage
// and is an error.
func ParseOne(fs *flag.FlagSet, args []string, what string) (string, error) {
	pos, err := ParseInterleaved(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		fs.Usage()
		return "", fmt.Errorf("%s needs one %s", fs.Name(), what)
	}
	return pos[0], nil
}
