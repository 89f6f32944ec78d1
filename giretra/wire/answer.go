package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/botarena/gamebot/giretra"
)

// The decoders below read a bot's answers exactly as the engine does
// (RemoteBotClient.cs, System.Text.Json without case-insensitive names):
// property names are case-sensitive, enum values are not, extra properties
// are ignored, numbers must be JSON integers, and null or a non-object is an
// error. The referee uses them to judge bots.

func answerObject(b []byte) (map[string]json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, fmt.Errorf("empty answer body")
	}
	if bytes.Equal(b, []byte("null")) {
		return nil, fmt.Errorf("answer is null")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("answer is not a JSON object: %v", err)
	}
	return m, nil
}

func stringField(m map[string]json.RawMessage, key string) (string, bool, error) {
	raw, ok := m[key]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("%q must be a string", key)
	}
	return s, true, nil
}

// SessionAnswer reads {"sessionId": "..."}.
func SessionAnswer(b []byte) (string, error) {
	m, err := answerObject(b)
	if err != nil {
		return "", err
	}
	id, ok, err := stringField(m, "sessionId")
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf(`answer has no "sessionId"`)
	}
	return id, nil
}

// CutAnswerOf reads {"position": int, "fromTop": bool}. A missing position
// reads as 0 and a missing fromTop as false, as in the engine; the range is
// the caller's check (giretra.Cut.Valid).
func CutAnswerOf(b []byte) (giretra.Cut, error) {
	m, err := answerObject(b)
	if err != nil {
		return giretra.Cut{}, err
	}
	var c giretra.Cut
	if raw, ok := m["position"]; ok {
		var n int32
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var num json.Number
		if err := dec.Decode(&num); err != nil {
			return c, fmt.Errorf(`"position" must be a JSON integer, got %s`, raw)
		}
		if strings.ContainsAny(num.String(), ".eE") {
			return c, fmt.Errorf(`"position" must be a JSON integer, got %s`, raw)
		}
		if err := json.Unmarshal(raw, &n); err != nil {
			return c, fmt.Errorf(`"position" out of range: %s`, raw)
		}
		c.Position = int(n)
	}
	if raw, ok := m["fromTop"]; ok {
		if err := json.Unmarshal(raw, &c.FromTop); err != nil {
			return c, fmt.Errorf(`"fromTop" must be a boolean, got %s`, raw)
		}
	}
	return c, nil
}

// ActionAnswerOf matches an answer against the offered actions the way the
// engine does: the first offered action whose type equals (ignoring case)
// and, for Announcement, whose mode equals, for Double/Redouble whose
// targetMode equals. In the seed dialect the seed's names ("Announce",
// "Pass", "gameMode") are also understood.
func ActionAnswerOf(b []byte, valid []giretra.Action, d Dialect) (giretra.Action, error) {
	m, err := answerObject(b)
	if err != nil {
		return giretra.Action{}, err
	}
	typ, _, err := stringField(m, "type")
	if err != nil {
		return giretra.Action{}, err
	}
	mode, _, err := stringField(m, "mode")
	if err != nil {
		return giretra.Action{}, err
	}
	target, _, err := stringField(m, "targetMode")
	if err != nil {
		return giretra.Action{}, err
	}
	if d == Seed {
		gm, _, err := stringField(m, "gameMode")
		if err != nil {
			return giretra.Action{}, err
		}
		switch strings.ToLower(typ) {
		case "announce":
			typ = "Announcement"
		case "pass":
			typ = "Accept"
		}
		if mode == "" {
			mode = gm
		}
		if target == "" {
			target = gm
		}
	}
	for _, v := range valid {
		if !strings.EqualFold(typ, v.Type.String()) {
			continue
		}
		switch v.Type {
		case giretra.Announce:
			if !strings.EqualFold(mode, v.Mode.String()) {
				continue
			}
		case giretra.Double, giretra.Redouble:
			if !strings.EqualFold(target, v.Mode.String()) {
				continue
			}
		}
		return v, nil
	}
	return giretra.Action{}, fmt.Errorf("answer %s matches no offered action", bytes.TrimSpace(b))
}

// CardAnswerOf reads {"rank": "...", "suit": "..."}, names ignoring case.
func CardAnswerOf(b []byte) (giretra.Card, error) {
	m, err := answerObject(b)
	if err != nil {
		return giretra.NoCard, err
	}
	rank, _, err := stringField(m, "rank")
	if err != nil {
		return giretra.NoCard, err
	}
	suit, _, err := stringField(m, "suit")
	if err != nil {
		return giretra.NoCard, err
	}
	r, ok := giretra.ParseRank(rank)
	if !ok {
		return giretra.NoCard, fmt.Errorf("unknown card rank %q", rank)
	}
	st, ok := giretra.ParseSuit(suit)
	if !ok {
		return giretra.NoCard, fmt.Errorf("unknown card suit %q", suit)
	}
	return giretra.NewCard(r, st), nil
}
