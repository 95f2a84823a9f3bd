package panel

import (
	"testing"
	"time"
)

// TestChart counts decisions per hour by outcome and scales the bars to
// the highest hour; decisions older than a day are left out.
func TestChart(t *testing.T) {
	now := time.Date(2026, 12, 4, 15, 30, 0, 0, time.UTC)
	rows := []Row{
		{Time: now.Add(-25 * time.Hour), Outcome: "OK"},
		{Time: now.Add(-10 * time.Minute), Outcome: "OK"},
		{Time: now.Add(-5 * time.Minute), Outcome: "OK"},
		{Time: now.Add(-1 * time.Minute), Outcome: "PERMISSION_DENIED"},
		{Time: now.Add(-2 * time.Hour), Outcome: "WORKSPACE_VIOLATION"},
	}
	c := chart(rows, now)
	last := c.Bars[len(c.Bars)-1]
	if len(c.Bars) != chartHours || c.Max != 3 || last.OK != 2 || last.Refused != 1 || c.Bars[len(c.Bars)-3].Refused != 1 {
		t.Fatalf("chart %+v", c)
	}
	if last.OKH+last.RefH != chartHeight || last.RefusedY < 0 {
		t.Errorf("the highest bar is %d+%d high, want %d", last.OKH, last.RefH, chartHeight)
	}
}

// TestFilter matches every member as a substring and the time window.
func TestFilter(t *testing.T) {
	now := time.Now()
	r := Row{Time: now.Add(-2 * time.Hour), Action: "read_file", Outcome: "WORKSPACE_VIOLATION", Rule: "workspace.outside", Origin: "chrome-extension://abc/"}
	for f, want := range map[Filter]bool{
		{}:                              true,
		{Action: "read"}:                true,
		{Action: "write"}:               false,
		{Outcome: "VIOLATION"}:          true,
		{Rule: "sensitivity"}:           false,
		{Origin: "abc"}:                 true,
		{SinceHours: 1}:                 false,
		{SinceHours: 3, Action: "read"}: true,
	} {
		if got := f.match(r, now); got != want {
			t.Errorf("%+v: %v, want %v", f, got, want)
		}
	}
}

// TestLogOff: with the decision log off the panel says so instead of
// reporting a broken chain.
func TestLogOff(t *testing.T) {
	p := NewServer(Spec{}, "/t/")
	h := p.common()
	if h.VerifyOK || h.VerifyEr == "" {
		t.Errorf("log off: %+v", h)
	}
	if rows, err := p.rows(); err != nil || len(rows) != 0 {
		t.Errorf("rows %v %v", rows, err)
	}
}
