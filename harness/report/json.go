package report

import (
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strings"

	"github.com/regress-hbase/regress/harness/compare"
	"github.com/regress-hbase/regress/harness/noise"
)

// jsonNumber marshals NaN and infinities (and absent values) as null, which
// encoding/json would otherwise refuse.
type jsonNumber struct {
	v  float64
	ok bool
}

func num(v float64) jsonNumber { return jsonNumber{v: v, ok: !math.IsNaN(v) && !math.IsInf(v, 0)} }

func nums(vs []float64) []jsonNumber {
	if len(vs) == 0 {
		return nil
	}
	out := make([]jsonNumber, len(vs))
	for i, v := range vs {
		out[i] = num(v)
	}
	return out
}

func (n jsonNumber) MarshalJSON() ([]byte, error) {
	if !n.ok {
		return []byte("null"), nil
	}
	return json.Marshal(n.v)
}

// jsonMetric is one row of report.json: a compare.MetricResult field for
// field, in its order and with its tags, except that every float the
// comparison may leave NaN, infinite or unset (a float64 without omitempty,
// the per-trial values) is a jsonNumber, null when not finite. Its type is
// derived from MetricResult (jsonMetricType), so a field added there
// reaches the JSON without a copy here.
type jsonMetric struct{ v reflect.Value }

// MarshalJSON writes the row's derived struct.
func (m jsonMetric) MarshalJSON() ([]byte, error) { return json.Marshal(m.v.Interface()) }

var (
	jsonNumberType  = reflect.TypeFor[jsonNumber]()
	jsonNumbersType = reflect.TypeFor[[]jsonNumber]()
	jsonMetricType  = nullable(reflect.TypeFor[compare.MetricResult]())
)

// nullable derives from struct type t one with the same fields, tags and
// order whose nullable floats are jsonNumbers.
func nullable(t reflect.Type) reflect.Type {
	fs := make([]reflect.StructField, t.NumField())
	for i := range fs {
		f := t.Field(i)
		typ := f.Type
		switch {
		case typ == reflect.TypeFor[float64]() && !strings.HasSuffix(f.Tag.Get("json"), ",omitempty"):
			typ = jsonNumberType
		case typ == reflect.TypeFor[[]float64]():
			typ = jsonNumbersType
		}
		fs[i] = reflect.StructField{Name: f.Name, Type: typ, Tag: f.Tag}
	}
	return reflect.StructOf(fs)
}

// toJSONMetric copies m into its JSON row.
func toJSONMetric(m compare.MetricResult) jsonMetric {
	src, dst := reflect.ValueOf(m), reflect.New(jsonMetricType).Elem()
	for i := range src.NumField() {
		switch f := dst.Field(i); f.Type() {
		case jsonNumberType:
			f.Set(reflect.ValueOf(num(src.Field(i).Float())))
		case jsonNumbersType:
			f.Set(reflect.ValueOf(nums(src.Field(i).Interface().([]float64))))
		default:
			f.Set(src.Field(i))
		}
	}
	return jsonMetric{dst}
}

// null writes the named fields as null: figures the report does not stand
// behind (no interval, no test).
func (m jsonMetric) null(fields ...string) {
	for _, name := range fields {
		m.v.FieldByName(name).Set(reflect.ValueOf(jsonNumber{}))
	}
}

type jsonReport struct {
	// SchemaVersion is JSONSchemaVersion.
	SchemaVersion int             `json:"schema_version"`
	Verdict       compare.Verdict `json:"verdict"`
	Note          string          `json:"note,omitempty"`
	Baseline      compare.Side    `json:"baseline"`
	Candidate     compare.Side    `json:"candidate"`
	Suite         string          `json:"suite"`
	Paired        bool            `json:"paired"`
	Interleaved   bool            `json:"interleaved"`
	Duet          bool            `json:"duet,omitempty"`
	// Instances is the most server instance blocks a metric's pairs span (compare.Comparison.Instances).
	Instances int `json:"instances,omitempty"`
	// InstanceNoise is the instance sd the comparison assumed and where it came from (compare.Comparison.InstanceNoise).
	InstanceNoise *noise.Assumed `json:"instance_noise,omitempty"`
	Descriptive   bool           `json:"descriptive"`
	Alpha         jsonNumber     `json:"alpha"`
	Looks         int            `json:"looks"`
	LookAlpha     jsonNumber     `json:"look_alpha"`
	Runs          int            `json:"runs,omitempty"`
	Invalid       string         `json:"invalid,omitempty"`
	// FamilyAlpha is the level the Holm family was tested at (primary rows took the rest).
	FamilyAlpha float64 `json:"family_alpha,omitempty"`
	// NotCompared lists the gated metrics no row compares, with why.
	NotCompared []string           `json:"gated_not_compared,omitempty"`
	HeldRate    []compare.HeldRate `json:"held_rate,omitempty"`
	Metrics     []jsonMetric       `json:"metrics"`
	Warnings    []string           `json:"warnings"`
	Generated   string             `json:"generated,omitempty"`
	// DecidedBy is the build of regress that decided (the vote's "Decided by" line).
	DecidedBy string `json:"decided_by,omitempty"`
	// ServerCounts are each side's server-counted requests and block cache lookups per workload.
	ServerCounts     []compare.ServerCounts `json:"server_counts,omitempty"`
	ServerCountNotes []string               `json:"server_count_notes,omitempty"`
	// Capacity is the rate sweep of `regress capacity`: every search and step,
	// as the capacity package marshals it.
	Capacity Section `json:"capacity,omitempty"`
	// Profiles are the differential profiles per workload (--profile).
	Profiles     []jsonProfile `json:"profiles,omitempty"`
	ProfileNotes []string      `json:"profile_notes,omitempty"`
	// Timelines are the trials the HTML draws latency and server events of
	// (each workload and side's worst-p99 trial), as data.
	Timelines []jsonTimeline `json:"timelines,omitempty"`
	// LatencyShifts are each workload's operation's latency shift by
	// percentile over paired trials; LatencyShiftNotes say why some are not given.
	LatencyShifts     []jsonShift `json:"latency_shifts,omitempty"`
	LatencyShiftNotes []string    `json:"latency_shift_notes,omitempty"`
}

// jsonTimeline is one trial's latency by interval and its servers' events.
type jsonTimeline struct {
	Workload     string            `json:"workload"`
	Side         string            `json:"side"`
	Name         string            `json:"name"`
	TrialID      string            `json:"trial_id"`
	Pair         int               `json:"pair"`
	WindowMillis float64           `json:"window_ms"`
	Why          string            `json:"why,omitempty"`
	Intervals    []jsonInterval    `json:"intervals"`
	Events       []jsonServerEvent `json:"server_events"`
	OmittedGCs   int               `json:"omitted_gc_pauses,omitempty"`
	// Counted is, per server read through /jmx, what was counted between the window's edges.
	Counted []jsonCounted `json:"counted,omitempty"`
	Note    string        `json:"note,omitempty"`
}

// jsonCounted is what one server read through /jmx counted in the window.
type jsonCounted struct {
	Server      string `json:"server"`
	GCs         int64  `json:"gcs"`
	GCMillis    int64  `json:"gc_ms"`
	Flushes     int    `json:"flushes"`
	Compactions int    `json:"compactions"`
	Splits      int    `json:"splits"`
}

// jsonInterval is one interval of a trial's latency log.
type jsonInterval struct {
	StartMillis float64 `json:"start_ms"`
	EndMillis   float64 `json:"end_ms"`
	P99Micros   float64 `json:"p99_us"`
	MaxMicros   float64 `json:"max_us"`
	Count       int64   `json:"count"`
}

// jsonServerEvent is one GC pause, flush, compaction, split or region opened.
type jsonServerEvent struct {
	Kind           string  `json:"kind"`
	AtMillis       float64 `json:"at_ms"`
	DurationMillis float64 `json:"duration_ms"`
	Server         string  `json:"server"`
	Detail         string  `json:"detail,omitempty"`
}

// jsonTimelines turns the report's timelines into their JSON form.
func jsonTimelines(ts []TrialTimeline) []jsonTimeline {
	var out []jsonTimeline
	for _, t := range ts {
		jt := jsonTimeline{Workload: t.Workload, Side: t.Side, Name: t.Name, TrialID: t.TrialID, Pair: t.Pair,
			WindowMillis: t.WindowMillis, Why: t.Why, Intervals: []jsonInterval{}, Events: []jsonServerEvent{}}
		for _, iv := range t.Intervals {
			jt.Intervals = append(jt.Intervals, jsonInterval(iv))
		}
		jt.Note = timelineNoteOf(t)
		if t.Server != nil {
			jt.OmittedGCs = t.Server.OmittedGCs
			for _, e := range t.Server.Events {
				jt.Events = append(jt.Events, jsonServerEvent(e))
			}
			for _, c := range t.Server.Counted {
				jt.Counted = append(jt.Counted, jsonCounted(c))
			}
		}
		out = append(out, jt)
	}
	return out
}

// renderJSON writes the verdict object. Descriptive metrics carry null
// ci_low, ci_high and p: they have no interval and no test.
func renderJSON(w io.Writer, r Report) error {
	c := r.Comparison
	out := jsonReport{SchemaVersion: JSONSchemaVersion, Verdict: c.Verdict, Baseline: c.Baseline, Candidate: c.Candidate, Suite: c.Suite,
		Paired: c.Paired, Interleaved: c.Interleaved, Duet: c.Duet, Instances: c.Instances, InstanceNoise: c.InstanceNoise, Descriptive: c.Descriptive, Alpha: num(c.Alpha),
		Looks: c.Looks, LookAlpha: num(c.LookAlpha), Runs: c.Runs, Invalid: c.Invalid, FamilyAlpha: c.FamilyAlpha, NotCompared: c.NotCompared, HeldRate: c.HeldRate,
		Metrics: []jsonMetric{}, Warnings: c.Warnings, Capacity: r.Capacity,
		Profiles: jsonProfiles(r), ProfileNotes: profileNotes(r), Timelines: jsonTimelines(r.Timelines), LatencyShifts: jsonShifts(r.Shifts), LatencyShiftNotes: r.ShiftNotes, ServerCounts: c.ServerCounts, ServerCountNotes: c.ServerCountNotes}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	if c.Descriptive {
		out.Note = DescriptiveNote
		out.Alpha, out.LookAlpha = jsonNumber{}, jsonNumber{}
	}
	if !r.Generated.IsZero() {
		out.Generated = r.Generated.UTC().Format("2006-01-02T15:04:05Z")
	}
	out.DecidedBy = r.Vote.Regress
	for _, m := range c.Metrics {
		jm := toJSONMetric(m)
		if !hasCI(m) {
			jm.null("CILow", "CIHigh", "PassBound", "RegressionBound")
		}
		if m.Status == compare.Descriptive {
			jm.null("P")
		}
		out.Metrics = append(out.Metrics, jm)
	}
	return writeRoundedJSON(w, out)
}
