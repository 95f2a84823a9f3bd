package protocol

// LimitBounds are the per-action limits a configuration or a decision may
// set (Call.Limit, config's limits member), each with its largest value.
// A value past its bound would switch the limit off in all but name, and a
// timeout past it would overflow when made a time.Duration.
var LimitBounds = map[string]int64{
	"timeout_ms":      3_600_000, // an hour
	"max_bytes":       4 << 30,
	"max_entries":     10_000_000,
	"max_file_bytes":  4 << 30,
	"max_lines":       10_000_000,
	"max_results":     10_000_000,
	"max_total_chars": 1 << 30,
	"max_rounds":      10_000,
	"max_pixels":      1 << 31, // 2 GP: 8 GiB decoded as RGBA
	"max_frames":      1_000_000,
}
