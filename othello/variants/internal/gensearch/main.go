// Command gensearch writes othello/variants/search10_gen.go from
// search8.go by renaming every identifier that ends in 8 (bits8, pos8,
// Searcher8, …) to end in 10. Run it with go generate ./othello/variants.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run("search8.go", "search10_gen.go"); err != nil {
		fmt.Fprintln(os.Stderr, "gensearch:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	b, err := Transform(src)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
