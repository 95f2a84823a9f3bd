package panel

import (
	"time"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// Chart is the decisions-over-time chart: the last 24 hours in hourly
// bars, each split into allowed (outcome OK) and refused.
type Chart struct {
	Bars  []Bar
	Max   int
	Width int
}

// Bar is one hour's column, with its SVG geometry.
type Bar struct {
	Label          string
	OK, Refused    int
	X              int
	OKY, OKH       int
	RefusedY, RefH int
}

// chart geometry.
const (
	chartHours  = 24
	chartHeight = 120
	barWidth    = 22
)

// chart counts rows per hour for the last chartHours hours up to now.
func chart(rows []Row, now time.Time) Chart {
	start := now.Truncate(time.Hour).Add(-(chartHours - 1) * time.Hour)
	c := Chart{Bars: make([]Bar, chartHours), Width: chartHours * (barWidth + 4)}
	for i := range c.Bars {
		c.Bars[i].Label = start.Add(time.Duration(i) * time.Hour).Local().Format("15h")
	}
	for _, r := range rows {
		i := int(r.Time.Sub(start) / time.Hour)
		if r.Time.Before(start) || i >= chartHours {
			continue
		}
		if r.Outcome == decisionlog.OutcomeOK {
			c.Bars[i].OK++
		} else {
			c.Bars[i].Refused++
		}
	}
	for _, b := range c.Bars {
		c.Max = max(c.Max, b.OK+b.Refused)
	}
	scale := max(c.Max, 1)
	for i := range c.Bars {
		b := &c.Bars[i]
		b.X = i * (barWidth + 4)
		b.OKH = b.OK * chartHeight / scale
		b.RefH = b.Refused * chartHeight / scale
		b.OKY = chartHeight - b.OKH
		b.RefusedY = b.OKY - b.RefH
	}
	return c
}
