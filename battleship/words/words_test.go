package words

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/battleship/remote"
	"github.com/botarena/gamebot/battleship/wire"
	"github.com/botarena/gamebot/internal/i18n"
)

// TestCatalogues: every key is in the three languages with the verbs of
// the English text (i18n.Check), and the reasons a bot's answer is
// invalid are the wire's, word for word in English.
func TestCatalogues(t *testing.T) {
	for _, bad := range i18n.Check() {
		t.Error(bad)
	}
	en := For(i18n.EN)
	for why, text := range wire.PlainTexts {
		args := []any{}
		for range strings.Count(text, "%") {
			args = append(args, 7)
		}
		if why == "noKey" {
			args = []any{"boats"}
		}
		if got, want := en.T("why."+why, args...), fmt.Sprintf(text, args...); got != want {
			t.Errorf("why.%s reads %q, the wire %q", why, got, want)
		}
		for _, l := range []i18n.Lang{i18n.FR, i18n.MG} {
			if got := For(l).T("why."+why, args...); strings.Contains(got, "%!") || got == "battleship.why."+why {
				t.Errorf("%s: why.%s reads %q", l, why, got)
			}
		}
	}
}

var testRules = battleship.Rules{W: 6, H: 4, Fleet: battleship.Fleet{0, 0, 1, 1}}

type timeout struct{}

func (timeout) Error() string   { return "i/o timeout" }
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }

// TestReason: in English a bot's fault reads as remote.Reason writes it
// for the record; in every language it quotes nothing the bot sent.
func TestReason(t *testing.T) {
	const secret = "SECRET<img>"
	_, errShot := wire.ArenaPlay(testRules, []byte(`"`+secret+`"`))
	_, errObj := wire.AnswerField([]byte(secret), "play")
	for _, err := range []error{
		errShot, errObj,
		&wire.InvalidAnswer{Reason: secret},
		timeout{},
		context.DeadlineExceeded,
		errors.New("dial tcp: connection refused " + secret),
	} {
		if got, want := For(i18n.EN).Reason(err), remote.Reason(err); got != want {
			t.Errorf("%v: %q, the record says %q", err, got, want)
		}
		for _, l := range i18n.Langs {
			if got := For(l).Reason(err); got == "" || strings.Contains(got, "SECRET") || strings.Contains(got, "battleship.") {
				t.Errorf("%s: %v reads %q", l, err, got)
			}
		}
	}
}
