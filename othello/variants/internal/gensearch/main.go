// Command gensearch writes othello/variants' 10×10 searcher from its 8×8
// templates (search8.go → search10_gen.go, solve8.go → solve10_gen.go) by
// renaming every identifier that ends in 8 (bits8, pos8, Searcher8, …) to
// end in 10. Run it with go generate ./othello/variants.
package main

import (
	"fmt"
	"os"
)

// Templates are the 8×8 files and the 10×10 files made from them.
var Templates = [][2]string{{"search8.go", "search10_gen.go"}, {"solve8.go", "solve10_gen.go"}}

func main() {
	for _, t := range Templates {
		if err := run(t[0], t[1]); err != nil {
			fmt.Fprintln(os.Stderr, "gensearch:", err)
			os.Exit(1)
		}
	}
}

func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	b, err := Transform(in, src)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
