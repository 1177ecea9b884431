package servercost

import (
	"bytes"
	"regexp"
)

// Server events a region server logs that change what a trial measures:
// a flush or compaction competes with requests for CPU and disk, a split
// moves a region in the middle of the window.
var (
	flushLine      = regexp.MustCompile(`Finished (memstore )?flush of`)
	compactionLine = regexp.MustCompile(`Completed (major )?compaction of`)
	splitLine      = regexp.MustCompile(`state=SUCCESS.*SplitTableRegionProcedure|Region split, hbase:meta updated`)
)

// Events counts what a region server logged in one window.
type Events struct {
	Flushes, Compactions, Splits int
}

// Any reports whether anything happened that flags the trial.
func (e Events) Any() bool { return e.Flushes+e.Compactions+e.Splits > 0 }

func (e *Events) add(o Events) {
	e.Flushes += o.Flushes
	e.Compactions += o.Compactions
	e.Splits += o.Splits
}

// scanEvents counts the events in a stretch of a region server's log.
func scanEvents(log []byte) Events {
	var e Events
	for line := range bytes.Lines(log) {
		switch {
		case flushLine.Match(line):
			e.Flushes++
		case compactionLine.Match(line):
			e.Compactions++
		case splitLine.Match(line):
			e.Splits++
		}
	}
	return e
}
