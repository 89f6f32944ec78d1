package bidmodel

import (
	_ "embed"
	"sync"
)

//go:embed model.bin.gz
var embedded []byte

// Embedded is the model the bot bids with (model.bin.gz, made by
// giretra-train fit), loaded once.
var Embedded = sync.OnceValue(func() *Model {
	m, err := Load(embedded)
	if err != nil {
		panic("bidmodel: the embedded model does not load: " + err.Error())
	}
	return m
})
