package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/report"
	"github.com/botarena/gamebot/internal/htmlreport"
)

// report: one self-contained HTML page from a -record folder.
func runReport(args []string, env *runEnv) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	out := fs.String("o", "report.html", `the page to write ("-": standard output)`)
	subject := fs.String("subject", "", "the player the report is about (default: the records' first subject: the validated bot, a benchmark's first bot)")
	viewer := fs.Int("viewer", 50, "matches the deal viewer holds (about 1 KB per deal)")
	title := fs.String("title", "", "the page's title")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "giretra-ref report <record folder> [-o report.html] [-subject NAME] [-viewer N]\n")
		fs.PrintDefaults()
	}
	dir, err := parseOne(fs, args, "record folder")
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	ms, err := record.ReadDir(dir)
	if err != nil {
		return err
	}
	size, err := htmlreport.Save(*out, env.stdout, func(w io.Writer) error {
		return report.Write(w, ms, report.Options{Subject: *subject, ViewerMatches: *viewer, Title: *title})
	})
	if err == nil && *out != "-" {
		fmt.Fprintf(env.stderr, "giretra-ref: wrote %s (%d matches, %d KB)\n", *out, len(ms), size>>10)
	}
	return err
}
