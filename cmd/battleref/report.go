package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/report"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/htmlreport"
)

// report: one self-contained HTML page from a -record folder.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "replay.html", `the page to write ("-": standard output)`)
	subject := fs.String("subject", "", "the player the report is about (default: the records' first subject, battleref -bot)")
	viewer := fs.Int("viewer", 200, "games the duel viewer holds (about 1 KB per game on a 10x10 board)")
	title := fs.String("title", "", "the page's title")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "battleref report <record folder> [-o replay.html] [-subject NAME] [-viewer N]\n")
		fs.PrintDefaults()
	}
	dir, err := cli.ParseOne(fs, args, "record folder")
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	ds, err := record.ReadDuelDir(dir)
	if err != nil {
		return err
	}
	size, err := htmlreport.Save(*out, stdout, func(w io.Writer) error {
		return report.Write(w, ds, report.Options{Subject: *subject, ViewerGames: *viewer, Title: *title})
	})
	if err == nil && *out != "-" {
		fmt.Fprintf(stderr, "battleref: wrote %s (%d games, %d KB)\n", *out, len(ds), size>>10)
	}
	return err
}
