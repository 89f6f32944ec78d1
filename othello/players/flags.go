package players

import (
	"flag"

	"github.com/botarena/gamebot/internal/spec"
)

// Flags registers the in-process engine's options on fs, a flag each
// (and one for each alias), and returns what builds the engine from the
// flags given: othello-engine's flags are the options of an engine spec.
func Flags(fs *flag.FlagSet, name string) func() (Player, error) {
	var given []spec.Option
	for _, o := range Options {
		for _, n := range []string{o.Name, o.Alias} {
			if n == "" {
				continue
			}
			usage := o.Usage
			if n == o.Alias {
				usage = "the older name of -" + o.Name
			}
			fs.Var(&optionFlag{key: n, bool: o.Bool, given: &given}, n, usage)
		}
	}
	return func() (Player, error) { return Engine(name, given...) }
}

// optionFlag is one option as a flag: each value given is kept, in the
// order given, for Engine to check.
type optionFlag struct {
	key   string
	bool  bool
	given *[]spec.Option
	last  string
}

func (f *optionFlag) String() string { return f.last }

func (f *optionFlag) Set(v string) error {
	f.last = v
	*f.given = append(*f.given, spec.Option{Key: f.key, Value: v})
	return nil
}

// IsBoolFlag lets a true/false option's flag stand alone.
func (f *optionFlag) IsBoolFlag() bool { return f.bool }
