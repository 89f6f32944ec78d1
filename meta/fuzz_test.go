package meta

import "testing"

// FuzzDecode: bot.meta.json in either reading (the engine's lenient one
// and our strict check) gives a value or an error, never a panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"launch":{"fileName":"./x"}}`))
	f.Add([]byte(`{"NAME":"n","Launch":{"FILENAME":"./x","Port":7001,"StartupTimeout":5},"Init":{"Command":"make"},"notifications":["Match-Ended"]}`))
	f.Add([]byte(`{"notifications":null,"launch":{"fileName":"x","environmentVariables":{"PORT":"9"}}}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if bot, err := Decode(b, "folder"); err == nil && bot.AgentName == "" {
			t.Errorf("decoded without an agent name: %+v", bot)
		}
		_, _ = Parse(b)
	})
}
