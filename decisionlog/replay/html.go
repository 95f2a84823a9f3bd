package replay

import (
	"html/template"
	"io"
	"strconv"
	"sync"
	"time"
)

// WriteHTML writes the report as one self-contained HTML page: the
// summary, the counts, an inline SVG chart of decisions over time (allowed,
// denied, and how many changed) and the list of changed decisions. The
// page loads nothing from anywhere.
func (r *Report) WriteHTML(w io.Writer) error {
	return page().Execute(w, htmlView{Report: r, Chart: chart(r.Timeline)})
}

type htmlView struct {
	*Report
	Chart svgChart
}

// svgChart is the timeline laid out in SVG user units.
type svgChart struct {
	Width, Height int
	Bars          []svgBar
	First, Last   string
	Max           int
}

// svgBar is one bucket: allowed stacked on denied, changed as a marker.
type svgBar struct {
	X, W           float64
	AllowY, AllowH float64
	DenyY, DenyH   float64
	Changed        int
	Title          string
}

const (
	chartW, chartH = 720, 200
)

func chart(ts []Bucket) svgChart {
	c := svgChart{Width: chartW, Height: chartH}
	if len(ts) == 0 {
		return c
	}
	for _, b := range ts {
		c.Max = max(c.Max, b.Allowed+b.Denied)
	}
	c.First, c.Last = ts[0].Start.Format(time.RFC3339), ts[len(ts)-1].Start.Format(time.RFC3339)
	step := float64(chartW) / float64(len(ts))
	scale := float64(chartH-10) / float64(max(c.Max, 1))
	for i, b := range ts {
		allowH, denyH := float64(b.Allowed)*scale, float64(b.Denied)*scale
		c.Bars = append(c.Bars, svgBar{
			X: float64(i)*step + 1, W: max(step-2, 1),
			DenyY: chartH - denyH, DenyH: denyH,
			AllowY: chartH - denyH - allowH, AllowH: allowH,
			Changed: b.Changed,
			Title:   b.Start.Format(time.RFC3339) + ": " + itoa(b.Allowed) + " allowed, " + itoa(b.Denied) + " denied, " + itoa(b.Changed) + " changed",
		})
	}
	return c
}

func itoa(n int) string { return strconv.Itoa(n) }

// page is the report's template, parsed the first time a report is
// written rather than at every start of the binary.
var page = sync.OnceValue(func() *template.Template { return template.Must(template.New("replay").Parse(pageText)) })

const pageText = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>DeskBridge decision replay</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}
.ok{color:#176117}.bad{color:#a11}.allow{fill:#5a9e5a}.deny{fill:#c9663c}.chg{fill:#222}
</style></head><body>
<h1>Decision replay</h1>
{{with .Source}}<table>
<tr><th>log</th><td>{{.Log}}{{range .Files}}<br>{{.}}{{end}}</td></tr>
<tr><th>chain head</th><td><code>{{.Head}}</code></td></tr>
<tr><th>hash chain</th><td>{{if .ChainIntact}}<span class="ok">intact</span>{{else}}<b class="bad">NOT intact: replayed anyway (--force); these may not be the decisions that were made</b><ul>{{range .ChainIssues}}<li>{{.}}</li>{{end}}</ul>{{end}}</td></tr>
{{if .Unchecked}}<tr><th>not checked</th><td><ul>{{range .Unchecked}}<li>{{.}}</li>{{end}}</ul></td></tr>{{end}}
<tr><th>compared with</th><td>{{.Policy}}</td></tr>
<tr><th>replayed at</th><td>{{.At.Format "2006-01-02T15:04:05Z07:00"}}</td></tr>
</table>{{end}}
<p>{{.Total}} decisions replayed against {{if .NewPolicy}}a new policy{{else}}the policy that decided them{{end}}:
<b>{{.Same}}</b> same, <b class="{{if .Changed}}bad{{else}}ok{{end}}">{{len .Changed}}</b> changed,
{{len .Detail}} with other denials or limits,
{{len .Unreplayable}} unreplayable, {{len .Masked}} masked.</p>
<h2>Decisions over time</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="{{.Chart.Width}}" height="{{.Chart.Height}}" viewBox="0 0 {{.Chart.Width}} {{.Chart.Height}}" role="img" aria-label="decisions over time">
<rect x="0" y="0" width="{{.Chart.Width}}" height="{{.Chart.Height}}" fill="#f7f7f7"/>
{{range .Chart.Bars}}<g><title>{{.Title}}</title>
<rect class="allow" x="{{.X}}" y="{{.AllowY}}" width="{{.W}}" height="{{.AllowH}}"/>
<rect class="deny" x="{{.X}}" y="{{.DenyY}}" width="{{.W}}" height="{{.DenyH}}"/>
{{if .Changed}}<rect class="chg" x="{{.X}}" y="0" width="{{.W}}" height="6"/>{{end}}</g>
{{end}}</svg>
<p>{{.Chart.First}} … {{.Chart.Last}}; at most {{.Chart.Max}} decisions per bar.
Green: allowed, orange: denied, black mark: a decision that changed.</p>
{{if .ByChange}}<h2>Changes</h2>
<table><tr><th>answer before → after</th><th>count</th></tr>
{{range $k, $v := .ByChange}}<tr><td>{{$k}}</td><td>{{$v}}</td></tr>{{end}}</table>
<table><tr><th>action</th><th>count</th></tr>
{{range $k, $v := .ByAction}}<tr><td>{{$k}}</td><td>{{$v}}</td></tr>{{end}}</table>{{end}}
{{if .Changed}}<h2>Changed decisions</h2>
<table><tr><th>seq</th><th>time</th><th>origin</th><th>action</th><th>target</th><th>before</th><th>rule before</th><th>after</th><th>rule after</th><th>kind</th><th>request</th></tr>
{{range .Changed}}<tr><td>{{.Seq}}</td><td>{{.Timestamp.Format "2006-01-02T15:04:05.000Z07:00"}}</td><td>{{.Origin}}</td><td>{{.Action}}</td><td>{{.Target}}</td><td>{{.Before}}</td><td>{{.RuleBefore}}</td><td>{{.After}}</td><td>{{.RuleAfter}}</td><td>{{.Kind}}</td><td>{{.RequestID}}</td></tr>
{{end}}</table>{{end}}
{{if .Masked}}<h2>Masked, not replayed</h2><ul>
{{range .Masked}}<li>seq {{.Seq}} {{.Origin}} {{.Action}} {{.Target}}: its input was masked where the policy reads</li>{{end}}</ul>{{end}}
{{if .Unreplayable}}<h2>Not replayable</h2><ul>
{{range .Unreplayable}}<li>seq {{.Seq}} {{.Action}}: {{.Reason}}</li>{{end}}</ul>{{end}}
</body></html>
`
