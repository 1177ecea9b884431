package results

// MaxTimelineEvents bounds a trial's stored timeline: a 10-minute window
// holds hundreds of young collections a server, which would grow every
// manifest by tens of kB a trial. Past it the shortest GC pauses are left
// out (and counted); flushes, compactions, splits and moves are all kept.
const MaxTimelineEvents = 400

// ServerTimeline is what a side's region servers did during a trial's
// measurement window, in time order: GC pauses from their GC logs,
// flushes, compactions, splits and regions opened from their own logs.
// For servers read through /jmx (a cluster given by --*-zk) it holds what
// their beans give instead: Counted, and each collector's last collection
// as an event. Absent (nil) where neither was read, and in results stored
// before timelines.
type ServerTimeline struct {
	Events []ServerEvent `json:"events"`
	// OmittedGCs counts the GC pauses left out past MaxTimelineEvents (the shortest).
	OmittedGCs int `json:"omitted_gcs,omitempty"`
	// Counted is, per server read through /jmx, what its beans counted
	// between the window's two edges; nil where the servers' logs were read.
	Counted []ServerCounted `json:"counted,omitempty"`
}

// ServerCounted is what one server read through /jmx counted between a
// window's edges: collections and their time from its GarbageCollector
// beans, flushes, compactions and splits from its regionserver metrics.
// Only the last collection of each collector is an event on the timeline
// (LastGcInfo); the others, and every flush, compaction and split, are
// counted, not placed.
type ServerCounted struct {
	Server string `json:"server"`
	// GCs counts the collections (every collector's CollectionCount); GCMillis is their CollectionTime.
	GCs      int64 `json:"gcs"`
	GCMillis int64 `json:"gc_ms"`
	// Flushes, Compactions and Splits are the regionserver metrics' counts.
	Flushes     int `json:"flushes,omitempty"`
	Compactions int `json:"compactions,omitempty"`
	Splits      int `json:"splits,omitempty"`
}

// ServerEvent is one thing a region server did in a trial's window.
type ServerEvent struct {
	// Kind is "gc", "flush", "compaction", "split" or "move" (a region opened on the server).
	Kind string `json:"kind"`
	// AtMillis is when it began, in ms from the measurement window's start
	// (Trial.Start, the start of the trial's interval log); a GC pause that
	// began just before the window is negative.
	AtMillis float64 `json:"at_ms"`
	// DurationMillis is a GC pause's length (or a flush's, as logged); 0 when not known.
	DurationMillis float64 `json:"duration_ms,omitempty"`
	// Server names the region server; Detail is the log line's words, shortened.
	Server string `json:"server,omitempty"`
	Detail string `json:"detail,omitempty"`
}
