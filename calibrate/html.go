package calibrate

import (
	"fmt"
	"html/template"
	"io"
	"strings"
)

// WriteHTML writes the report as one self-contained HTML page: a summary table, then per detector a
// precision-recall curve and a threshold sweep drawn as inline SVG. It loads nothing from the network.
func WriteHTML(w io.Writer, r Report) error {
	return page.Execute(w, r)
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":    func(x float64) string { return fmt.Sprintf("%.3f", x) },
	"th":     func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"short":  short,
	"join":   strings.Join,
	"prc":    prChart,
	"sweep":  sweepChart,
	"beats":  func(d Result) bool { return d.F1 > d.BaselineF1 },
	"folds":  foldList,
	"ciText": func(i Interval) string { return fmt.Sprintf("[%.3f, %.3f]", i.Low, i.High) },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Warden detector calibration</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:1em 0}th,td{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}.ci{color:#777;font-size:90%}.bad{color:#b00}.note{color:#a60}
section{margin:2.5em 0}.charts{display:flex;gap:2em;flex-wrap:wrap}svg{background:#fafafa;border:1px solid #eee}
code{background:#f3f3f3;padding:0 .3em}.key span{margin-right:1.2em}
</style></head><body>
<h1>Warden detector calibration</h1>
<p>Data: <code>{{join .Data.Files ", "}}</code>, sha256 <code>{{short .Data.SHA256}}</code>,
{{.Data.Cases}} labelled cases{{if .Data.Unlabelled}}, {{.Data.Unlabelled}} without a label skipped{{end}}{{if .Data.Excluded}}, {{.Data.Excluded}} left out by filter{{end}}.
Corpora <code>{{short .CorpusHash}}</code>. {{.Folds}}-fold stratified cross-validation, seed {{.Seed}},
{{.Bootstrap}} bootstrap resamples. Figures are out-of-fold: each case was judged at a threshold chosen without it.</p>
<table>
<tr><th>detector</th><th>threshold</th><th>precision</th><th>recall</th><th>F1</th><th>always-fire F1</th><th>ECE</th><th>cases (+/−)</th><th>cannot judge</th></tr>
{{range .Detectors}}<tr><td><a href="#{{.Detector}}">{{.Detector}}</a></td><td>{{th .Threshold}}</td>
<td>{{pct .Precision}} <span class="ci">{{ciText .CI.Precision}}</span></td>
<td>{{pct .Recall}} <span class="ci">{{ciText .CI.Recall}}</span></td>
<td{{if not (beats .)}} class="bad"{{end}}>{{pct .F1}} <span class="ci">{{ciText .CI.F1}}</span></td>
<td>{{pct .BaselineF1}}</td><td>{{pct .ECE}}</td><td>{{.Cases}} ({{.Positives}}/{{.Negatives}})</td><td>{{.CannotJudge}}</td></tr>
{{end}}</table>
{{range .Detectors}}<section id="{{.Detector}}"><h2>{{.Detector}}</h2>
<p>Threshold <b>{{th .Threshold}}</b> (folds chose {{folds .FoldThresholds}}).
Out of fold: TP {{.Counts.TP}}, FP {{.Counts.FP}}, FN {{.Counts.FN}}, TN {{.Counts.TN}};
false-positive rate {{pct .FalsePositiveRate}}.{{if .Note}} <span class="note">{{.Note}}</span>{{end}}</p>
{{if .Difficulties}}<p>By difficulty (out of fold): {{range $i, $d := .Difficulties}}{{if $i}}, {{end}}{{$d.Difficulty}} {{pct $d.Accuracy}} accuracy ({{$d.Counts.TP}}+{{$d.Counts.TN}} of {{$d.Counts.TP}}+{{$d.Counts.TN}}+{{$d.Counts.FP}}+{{$d.Counts.FN}}){{end}}.</p>{{end}}
<div class="charts"><figure>{{prc .}}<figcaption>Precision against recall as the threshold falls (in-sample); the dot is the calibrated operating point (out of fold).</figcaption></figure>
<figure>{{sweep .}}<figcaption class="key"><span style="color:#1f77b4">— precision</span><span style="color:#d62728">— recall</span><span style="color:#2ca02c">— F1</span> at each grid threshold (in-sample); dashed: the calibrated threshold.</figcaption></figure></div>
</section>
{{end}}</body></html>
`))

func foldList(ts []float64) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%.2f", t)
	}
	return strings.Join(parts, ", ")
}

// The charts are drawn in a 360×280 box with a 40-pixel margin for the axes; only numbers this package
// computed go into them, so they are safe to mark as HTML.
const (
	chartW, chartH, margin = 360.0, 280.0, 40.0
	plotW, plotH           = chartW - 2*margin, chartH - 2*margin
)

func px(x float64) float64 { return margin + x*plotW }
func py(y float64) float64 { return chartH - margin - y*plotH }

func frame(b *strings.Builder, xLabel, yLabel string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-size="11">`, chartW, chartH, chartW, chartH)
	for i := 0; i <= 4; i++ {
		v := float64(i) / 4
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e4e4e4"/>`, px(0), py(v), px(1), py(v))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e4e4e4"/>`, px(v), py(0), px(v), py(1))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%.2g</text>`, px(0)-4, py(v)+4, v)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%.2g</text>`, px(v), py(0)+14, v)
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`, px(0), py(1), plotW, plotH)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, px(0.5), chartH-6, xLabel)
	fmt.Fprintf(b, `<text x="12" y="%.1f" text-anchor="middle" transform="rotate(-90 12 %.1f)">%s</text>`, py(0.5), py(0.5), yLabel)
}

func polyline(b *strings.Builder, colour string, xs, ys []float64) {
	b.WriteString(`<polyline fill="none" stroke-width="2" stroke="` + colour + `" points="`)
	for i := range xs {
		fmt.Fprintf(b, "%.1f,%.1f ", px(xs[i]), py(ys[i]))
	}
	b.WriteString(`"/>`)
}

func prChart(d Result) template.HTML {
	var b strings.Builder
	frame(&b, "recall", "precision")
	var xs, ys []float64
	for _, p := range d.Curve {
		xs, ys = append(xs, p.Recall), append(ys, p.Precision)
	}
	polyline(&b, "#1f77b4", xs, ys)
	fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="#d62728"><title>threshold %.2f: precision %.3f, recall %.3f</title></circle>`,
		px(d.Recall), py(d.Precision), d.Threshold, d.Precision, d.Recall)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func sweepChart(d Result) template.HTML {
	var b strings.Builder
	frame(&b, "threshold", "score")
	var xs, ps, rs, fs []float64
	for _, p := range d.Sweep {
		xs = append(xs, p.Threshold)
		ps, rs, fs = append(ps, p.Precision), append(rs, p.Recall), append(fs, p.F1)
	}
	polyline(&b, "#1f77b4", xs, ps)
	polyline(&b, "#d62728", xs, rs)
	polyline(&b, "#2ca02c", xs, fs)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="4 3"/>`, px(d.Threshold), py(0), px(d.Threshold), py(1))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
