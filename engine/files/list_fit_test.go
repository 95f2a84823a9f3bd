package files

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
)

// boundEntries are entries whose encoding is as long as it gets per
// character: escapes, invalid bytes, the longest size and time.
var boundEntries = []sandbox.Entry{
	{Name: "\x00\x01\x1f", Path: "<>&\u2028\u2029", Type: "other", Size: math.MinInt64,
		Modified: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", -(23*3600+59*60)))},
	{Name: "\xff\xfe", Path: `\"` + strings.Repeat("\x7f", 40), Type: "file", Size: math.MaxInt64,
		Modified: time.Date(2000, 1, 1, 0, 0, 0, 1, time.UTC)},
	{Name: "", Path: "", Type: ""},
	{Name: "日本", Path: "/w/日本", Type: "folder", Modified: time.Unix(1700000000, 123456789).UTC()},
}

// TestEntriesBoundCoversEncoding requires entriesBound to be at least the
// encoded size of any listing, each entry alone and all together: were it
// smaller, fit could keep a listing that does not fit.
func TestEntriesBoundCoversEncoding(t *testing.T) {
	check := func(es []sandbox.Entry) {
		t.Helper()
		b, err := appendEntries(nil, es)
		if err != nil {
			return // an unencodable listing fails whatever fit keeps
		}
		if got := entriesBound(es); got < int64(len(b)-len("[]")) {
			t.Fatalf("bound %d < encoded %d for %+v", got, len(b)-2, es)
		}
	}
	for i := range boundEntries {
		check(boundEntries[i : i+1])
	}
	check(boundEntries)
}

// TestFitAgreesWithMeasuring compares fit with the measuring loop alone
// for listings around the message cap: the same entries kept and the same
// truncation.
func TestFitAgreesWithMeasuring(t *testing.T) {
	c := &action.Call{Request: protocol.Request{ID: "r"}}
	entry := func(i int) sandbox.Entry {
		name := fmt.Sprintf("file-%06d-%s.txt", i, strings.Repeat("\x01", i%7))
		return sandbox.Entry{Name: name, Path: "/w/" + name, Type: "file", Size: int64(i), Modified: time.Unix(int64(i), int64(i)).UTC()}
	}
	for _, n := range []int{0, 1, 10, 5000, 6000, 6500, 7000, 12000} {
		es := make([]sandbox.Entry, n)
		for i := range es {
			es[i] = entry(i)
		}
		for _, truncated := range []bool{false, true} {
			d := listData{Entries: es, Truncated: truncated}
			got, want := fit(c, d), measureFit(c, d)
			if len(got.Entries) != len(want.Entries) || got.Truncated != want.Truncated || !reflect.DeepEqual(got, want) {
				t.Fatalf("%d entries: fit keeps %d (truncated %v), measuring %d (%v)", n, len(got.Entries), got.Truncated, len(want.Entries), want.Truncated)
			}
		}
	}
}

// measureFit is fit without the bound: it encodes to measure every time.
func measureFit(c *action.Call, d listData) listData {
	for c.ResponseBudget(d) < 0 && len(d.Entries) > 0 {
		d = shrink(c, d)
	}
	return d
}
