package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedUpToDate fails when search10_gen.go was not regenerated
// after an edit of search8.go (run go generate ./othello/variants).
func TestGeneratedUpToDate(t *testing.T) {
	src, err := os.ReadFile("../../search8.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Transform(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../search10_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("search10_gen.go is stale: run go generate ./othello/variants")
	}
}

func TestTransformRenames(t *testing.T) {
	got, err := Transform([]byte("package p\n\nvar bits8, x int8\nvar pos8 = uint8(8)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got, []byte("bits10, x int8")) || !bytes.Contains(got, []byte("pos10 = uint8(8)")) {
		t.Fatalf("got %s", got)
	}
}
