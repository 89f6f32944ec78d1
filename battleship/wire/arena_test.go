package wire

import (
	"encoding/json"
	"testing"

	"github.com/botarena/gamebot/battleship"
)

// TestArenaAnswers: the arena's reading of answers punishes what the
// arena punishes.
func TestArenaAnswers(t *testing.T) {
	r := battleship.Rules{W: 10, H: 10, Fleet: battleship.Fleet{0, 0, 1, 2, 1, 1, 0}}
	good := `["0,0-4,0","0,1-3,1","0,2-2,2","0,3-2,3","0,4-1,4"]`
	tests := []struct {
		name  string
		boats string
		ok    bool
	}{
		{"valid", good, true},
		{"reversed ends", `["4,0-0,0","3,1-0,1","2,2-0,2","0,3-2,3","1,4-0,4"]`, true},
		{"object of strings", `{"a":"0,0-4,0","b":"0,1-3,1","c":"0,2-2,2","d":"0,3-2,3","e":"0,4-1,4"}`, true},
		{"extra parts ignored", `["0,0,9-4,0-zz","0,1-3,1","0,2-2,2","0,3-2,3","0,4-1,4"]`, true},
		{"non-canonical", `["00,0-4,0","0,1-3,1","0,2-2,2","0,3-2,3","0,4-1,4"]`, false},
		{"overlap", `["0,0-4,0","0,0-0,3","0,2-2,2","0,3-2,3","0,4-1,4"]`, false},
		{"diagonal", `["0,0-4,4","0,1-3,1","0,2-2,2","0,3-2,3","0,4-1,4"]`, false},
		{"off board", `["6,0-10,0","0,1-3,1","0,2-2,2","0,3-2,3","0,4-1,4"]`, false},
		{"missing ship", `["0,0-4,0","0,1-3,1","0,2-2,2","0,3-2,3"]`, false},
		{"not strings", `[1,2]`, false},
	}
	for _, tt := range tests {
		_, err := ArenaBoats(r, json.RawMessage(tt.boats))
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
	for body, ok := range map[string]bool{`{"play":"1,2"}`: true, `{"play":null}`: false, `[]`: false, `"1,2"`: false, `{}`: false, `nope`: false} {
		if _, err := AnswerField([]byte(body), "play"); (err == nil) != ok {
			t.Errorf("AnswerField(%s): %v, want ok=%v", body, err, ok)
		}
	}
}
