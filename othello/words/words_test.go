package words

import (
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/othello"
)

// TestCatalogues: every key is in the three languages with the verbs of
// the English text (i18n.Check), and each of the game's things has its
// name in each (othello/table's TestCatalogues checks the keys the code
// and the pages name).
func TestCatalogues(t *testing.T) {
	for _, bad := range i18n.Check() {
		t.Error(bad)
	}
	for _, l := range i18n.Langs {
		w := For(l)
		var said []string
		for _, m := range othello.Modes() {
			said = append(said, w.Mode(m), w.About(m))
		}
		for _, r := range []string{"end", "timeout", "illegal", "failed", "resigned", "abandoned"} {
			said = append(said, w.Reason(r))
		}
		for _, s := range []string{"initial", "xot", "random"} {
			said = append(said, w.Start(s))
		}
		said = append(said, w.Side(othello.Black), w.Side(othello.White), w.Disc(othello.Black), w.Disc(othello.White), w.Clock(0), w.Clock(time.Minute))
		for _, s := range said {
			if s == "" || strings.HasPrefix(s, Prefix+".") || strings.Contains(s, "%!") {
				t.Errorf("%s: %q", l, s)
			}
		}
	}
	if fr, mg := For(i18n.FR), For(i18n.MG); fr.Disc(othello.Black) != "noir" || fr.Disc(othello.White) != "blanc" || mg.Disc(othello.Black) != "mainty" || mg.Disc(othello.White) != "fotsy" || fr.Clock(time.Minute) != "60 s par joueur" {
		t.Errorf("the discs: %q %q %q %q", fr.Disc(othello.Black), fr.Disc(othello.White), mg.Disc(othello.Black), mg.Disc(othello.White))
	}
}
