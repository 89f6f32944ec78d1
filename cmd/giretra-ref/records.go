package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/giretra/report"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/htmlreport"
)

// report: one self-contained HTML page from a -record folder.
func runReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "report.html", `the page to write ("-": standard output)`)
	subject := fs.String("subject", "", "the player the report is about (default: the records' first subject: the validated bot, a benchmark's first bot)")
	viewer := fs.Int("viewer", 50, "matches the deal viewer holds (about 1 KB per deal)")
	title := fs.String("title", "", "the page's title")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "giretra-ref report <record folder> [-o report.html] [-subject NAME] [-viewer N]\n")
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
	size, err := htmlreport.Save(*out, stdout, func(w io.Writer) error {
		return report.Write(w, ms, report.Options{Subject: *subject, ViewerMatches: *viewer, Title: *title})
	})
	if err == nil && *out != "-" {
		fmt.Fprintf(stderr, "giretra-ref: wrote %s (%d matches, %d KB)\n", *out, len(ms), size>>10)
	}
	return err
}

// show: a recorded match replayed as text.
func runShow(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	match := fs.Int("match", 0, "the match number (when the record is a folder; 0: the first)")
	deal := fs.Int("deal", 0, "only this deal (0: every deal)")
	calls := fs.Bool("calls", false, "list every HTTP exchange, not only failed and violating ones")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "giretra-ref show <record.jsonl | folder> [-match N] [-deal N] [-calls]\n")
		fs.PrintDefaults()
	}
	path, err := parseOne(fs, args, "record file or folder")
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	m, err := record.FindMatch(path, *match)
	if err != nil {
		return err
	}
	if *deal < 0 || *deal > len(m.Deals) {
		return usageErr("-deal %d: the match has %d deals", *deal, len(m.Deals))
	}
	report.Show(stdout, m, *deal, *calls)
	return nil
}

// losses: where the subject's records lose points to a reference's on
// the same deals.
func runLosses(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("losses", flag.ContinueOnError)
	fs.SetOutput(stderr)
	top := fs.Int("top", 12, "list this many of the bid class's costliest pairs of bids and of contracts")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "giretra-ref losses <record folder> <reference record folder> [-top N]\n"+
			"  both folders from giretra-strength -duplicate -record on the same seed, e.g. the bot and bot:oracle=full\n")
		fs.PrintDefaults()
	}
	pos, err := cli.ParseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err == nil && len(pos) != 2 {
		fs.Usage()
		err = errors.New("losses needs two record folders")
	}
	if err != nil {
		return usageErr("%v", err)
	}
	subject, err := record.ReadDir(pos[0])
	if err != nil {
		return err
	}
	ref, err := record.ReadDir(pos[1])
	if err != nil {
		return err
	}
	r, err := referee.Losses(subject, ref)
	if err != nil {
		return err
	}
	report.LossesText(stdout, r, *top)
	return nil
}
