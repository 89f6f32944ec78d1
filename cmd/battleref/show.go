package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/referee"
	"github.com/botarena/gamebot/internal/cli"
)

// show: a recorded duel game in the terminal.

func runShow(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.Int("game", 0, "the game number (when the record is a folder; 0: the first)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "battleref show <duel-0001.jsonl | record folder> [-game N]\n")
		fs.PrintDefaults()
	}
	path, err := cli.ParseOne(fs, args, "record file or folder")
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	d, err := record.FindDuel(path, *game)
	if err != nil {
		return err
	}
	referee.ShowDuel(stdout, d)
	return nil
}
