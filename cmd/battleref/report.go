package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/botarena/gamebot/internal/htmlreport"
	"github.com/botarena/gamebot/internal/record"
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
	dir, err := parseOne(fs, args, "record folder")
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
	var buf bytes.Buffer
	if err := htmlreport.WriteDuels(&buf, ds, htmlreport.DuelOptions{Subject: *subject, ViewerGames: *viewer, Title: *title}); err != nil {
		return err
	}
	if *out == "-" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "battleref: wrote %s (%d games, %d KB)\n", *out, len(ds), buf.Len()>>10)
	return nil
}
