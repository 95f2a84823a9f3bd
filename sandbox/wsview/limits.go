package wsview

import "slices"

// Limits are the agent limits in force for a run (docs/protocol.md, "Agent messages"; the
// configuration's agent member). A value of zero or less means the default.
type Limits struct {
	// MaxFileBytes is the largest file whose content may be read or searched.
	MaxFileBytes int `json:"max_file_bytes"`
	// MaxLines is the most lines one read returns.
	MaxLines int `json:"max_lines"`
	// MaxResults is the most entries (list) or matches (search) returned.
	MaxResults int `json:"max_results"`
	// MaxTotalChars bounds the text returned: file content, matching lines
	// and paths, counted in bytes of UTF-8, per operation and per round.
	MaxTotalChars int `json:"max_total_chars"`
	// MaxRounds is the most web_agent_context rounds in one run; the view
	// does not use it (see sandbox/runstore).
	MaxRounds int `json:"max_rounds"`
}

// DefaultLimits returns the limits used where a configuration sets none.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:  1 << 20,
		MaxLines:      400,
		MaxResults:    200,
		MaxTotalChars: 200_000,
		MaxRounds:     20,
	}
}

// Normalized returns l with every unset (zero or negative) limit set to
// its default.
func (l Limits) Normalized() Limits {
	d := DefaultLimits()
	pick := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	return Limits{
		MaxFileBytes:  pick(l.MaxFileBytes, d.MaxFileBytes),
		MaxLines:      pick(l.MaxLines, d.MaxLines),
		MaxResults:    pick(l.MaxResults, d.MaxResults),
		MaxTotalChars: pick(l.MaxTotalChars, d.MaxTotalChars),
		MaxRounds:     pick(l.MaxRounds, d.MaxRounds),
	}
}

// Names of the limits that can cut a result, as reported in TruncatedBy.
const (
	ByMaxFileBytes  = "max_file_bytes"
	ByMaxLines      = "max_lines"
	ByMaxResults    = "max_results"
	ByMaxTotalChars = "max_total_chars"
	// ByTime cuts a search whose deadline (the request's timeout) passed:
	// the files searched by then are the answer.
	ByTime = "time"
	// ByWalkEntries is the view's own bound on how many entries one
	// operation visits (MaxWalkEntries).
	ByWalkEntries = "walk_entries"
)

// MaxWalkEntries bounds the directory entries one operation visits, so a
// huge tree cannot stall a round.
const MaxWalkEntries = 500_000

// Cut records which limits cut a result. Its zero value is an uncut result.
type Cut struct {
	Truncated   bool     `json:"truncated"`
	TruncatedBy []string `json:"truncated_by,omitempty"`
}

// add records that limit cut the result.
func (c *Cut) add(limit string) {
	c.Truncated = true
	if !slices.Contains(c.TruncatedBy, limit) {
		c.TruncatedBy = append(c.TruncatedBy, limit)
		slices.Sort(c.TruncatedBy)
	}
}
