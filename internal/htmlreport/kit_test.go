package htmlreport

import "testing"

func TestBuckets(t *testing.T) {
	for _, tt := range []struct {
		ms   float64
		want int
	}{{0, 0}, {0.03, 0}, {0.04, 1}, {1, 5}, {1.5, 6}, {1e9, nBuckets - 1}} {
		if got := bucketOf(tt.ms); got != tt.want {
			t.Errorf("bucketOf(%v) = %d, want %d", tt.ms, got, tt.want)
		}
	}
	if bucketLabel(5) != "1ms" || bucketLabel(0) != "31µs" {
		t.Errorf("labels %s %s", bucketLabel(5), bucketLabel(0))
	}
}
