package results

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestServerTimelineIsAdditive: stats stored before timelines load with
// none, stats without one write no "timeline" key, and one round-trips.
func TestServerTimelineIsAdditive(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     *ServerTimeline
	}{
		{"stored before timelines", `{"cpu_per_op_us":12.5,"gross_cpu_per_op_us":20,"idle_cpu_ms_per_s":1,"gcs":2,"gc_pause_us":900,"servers":1,"window_ms":8000}`, nil},
		{"a quiet window", `{"cpu_per_op_us":1,"gross_cpu_per_op_us":1,"idle_cpu_ms_per_s":0,"gcs":0,"gc_pause_us":0,"timeline":{"events":[]},"servers":1,"window_ms":8000}`, &ServerTimeline{Events: []ServerEvent{}}},
		{"events", `{"cpu_per_op_us":1,"gross_cpu_per_op_us":1,"idle_cpu_ms_per_s":0,"gcs":1,"gc_pause_us":5000,"timeline":{"events":[{"kind":"gc","at_ms":-3,"duration_ms":5,"server":"rs1","detail":"Pause Young"},{"kind":"move","at_ms":400}],"omitted_gcs":2},"servers":1,"window_ms":8000}`,
			&ServerTimeline{Events: []ServerEvent{{Kind: "gc", AtMillis: -3, DurationMillis: 5, Server: "rs1", Detail: "Pause Young"}, {Kind: "move", AtMillis: 400}}, OmittedGCs: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s ServerStats
			if err := json.Unmarshal([]byte(tc.in), &s); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Timeline, tc.want) {
				t.Fatalf("timeline %+v, want %+v", s.Timeline, tc.want)
			}
			out, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(string(out), `"timeline"`); has != (tc.want != nil) {
				t.Errorf("written %s: timeline key present %v, want %v", out, has, tc.want != nil)
			}
		})
	}
}
