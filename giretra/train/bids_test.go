package train

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/botarena/gamebot/giretra/bot"
)

func someDecisions(t testing.TB, deals int) []bot.BidDecision {
	t.Helper()
	var decs []bot.BidDecision
	for d := range deals {
		decs = append(decs, bot.GenBidDeal(rand.New(rand.NewPCG(9, uint64(d))), bot.BidGenOptions{Explore: 0.2, Long: 0.5})...)
	}
	if len(decs) < deals {
		t.Fatalf("%d deals gave only %d decisions", deals, len(decs))
	}
	return decs
}

func TestWriteRead(t *testing.T) {
	decs := someDecisions(t, 40)
	h := Header{Seed: 3, Chunk: 7, Deals: 40, Options: bot.BidGenOptions{Explore: 0.2, Long: 0.5}}
	var buf bytes.Buffer
	if err := Write(&buf, h, decs); err != nil {
		t.Fatal(err)
	}
	h2, got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if h2 != h || len(got) != len(decs) {
		t.Fatalf("header %+v, %d decisions; want %+v, %d", h2, len(got), h, len(decs))
	}
	for i := range decs {
		want := decs[i]
		for j := range want.Value {
			want.Value[j] = float64(float32(want.Value[j])) // stored as float32
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Fatalf("decision %d:\n got %+v\nwant %+v", i, got[i], want)
		}
	}
}

// Every value a generated decision carries is its action's: the action
// under which the deal's seat's team does best on the true deal is often
// not the heuristic's, and values differ between actions.
func TestGeneratedValuesDiffer(t *testing.T) {
	decs := someDecisions(t, 200)
	differ := 0
	for _, d := range decs {
		if len(d.Valid) < 2 || len(d.Valid) != len(d.Value) {
			t.Fatalf("decision with %d options and %d values", len(d.Valid), len(d.Value))
		}
		for _, v := range d.Value[1:] {
			if v != d.Value[0] {
				differ++
				break
			}
		}
	}
	if differ < len(decs)/4 {
		t.Errorf("only %d of %d decisions value their actions differently", differ, len(decs))
	}
}

func TestReadRefuses(t *testing.T) {
	decs := someDecisions(t, 5)
	var good bytes.Buffer
	if err := Write(&good, Header{Seed: 1, Deals: 5}, decs); err != nil {
		t.Fatal(err)
	}
	// A decision whose seat is not the one to bid.
	bad := append([]bot.BidDecision(nil), decs...)
	bad[0].Seat = bad[0].Seat.Next()
	var b1 bytes.Buffer
	if err := Write(&b1, Header{Seed: 1}, bad); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"not gzip":   []byte("hello"),
		"wrong turn": b1.Bytes(),
		"truncated":  good.Bytes()[:good.Len()-9],
	} {
		if _, _, err := Read(bytes.NewReader(data)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// A generation is the same data at any concurrency, and resumes.
func TestGenerateDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	cfg := GenConfig{Dir: a, From: 0, To: 3, Deals: 20, Seed: 5, Concurrency: 2, Options: bot.BidGenOptions{Explore: 0.1, Long: 0.3}}
	if rep, err := Generate(context.Background(), cfg); err != nil || rep.Chunks != 3 {
		t.Fatalf("%+v, %v", rep, err)
	}
	cfg.Dir, cfg.Concurrency, cfg.To = b, 1, 2
	if _, err := Generate(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.To = 3
	if rep, err := Generate(context.Background(), cfg); err != nil || rep.Chunks != 1 {
		t.Fatalf("resumed: %+v, %v", rep, err)
	}
	for i := range 3 {
		x, _ := os.ReadFile(Name(a, i))
		y, _ := os.ReadFile(Name(b, i))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Fatalf("chunk %d differs between runs (%d and %d bytes)", i, len(x), len(y))
		}
	}
	decs, n, err := ReadDir(a, 1, 0)
	if err != nil || n != 2 || len(decs) == 0 {
		t.Fatalf("ReadDir: %d chunks, %d decisions, %v", n, len(decs), err)
	}
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	if err := Write(&buf, Header{Seed: 1, Deals: 2}, someDecisions(f, 2)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		h, decs, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What reads writes back to what reads the same.
		var out bytes.Buffer
		if err := Write(&out, h, decs); err != nil {
			t.Fatal(err)
		}
		h2, decs2, err := Read(&out)
		if err != nil || h2 != h || !reflect.DeepEqual(decs, decs2) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
