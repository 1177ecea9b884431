package servercost

import (
	"bytes"
	"regexp"
	"strconv"
)

// GCLogOptions are the JVM options that make a JVM of JDK major version jdk
// write the GC log this package reads to path: each collection's heap use
// before and after, in KiB, stamped in milliseconds since the epoch. JDK 8's
// -Xloggc prints another format, so it gets none (JDK 8 cannot be reached here).
func GCLogOptions(jdk int, path string) []string {
	if jdk < 9 || path == "" {
		return nil
	}
	return []string{"-Xlog:gc=info,gc+heap=debug:file=" + path + ":timemillis,tags:filecount=0"}
}

var (
	// "GC(12) Heap before GC invocations=12 (full 0):"
	gcHeapMark = regexp.MustCompile(`GC\((\d+)\) Heap (before|after) GC invocations=`)
	// "GC(12)  garbage-first heap   total 262144K, used 13236K [..." (G1) or
	// " PSYoungGen      total 76288K, used 65536K [..." (each generation of the others).
	gcUsed = regexp.MustCompile(`GC\((\d+)\)\s+\S.*total \d+K, used (\d+)K`)
)

// gcFreed sums, over the collections whose before and after blocks both lie
// in log, the heap use before minus after in bytes, and counts them.
func gcFreed(log []byte) (freed int64, collections int) {
	return gcFreedIn(log, 0, len(log))
}

// gcFreedIn is gcFreed counting only the collections that ended in bytes
// [from, to) of log: those whose "Heap after" block starts there. A window's
// log is read from a little before its start, because a collection is in the
// window when it ended in it: a reading taken during a pause sees the heap as
// it was before (the JVM's counters change at the pause's end) while the
// log already holds the "Heap before" block, which then lies before the
// window's first byte. Its blocks are read to their end past to.
func gcFreedIn(log []byte, from, to int) (freed int64, collections int) {
	type block struct {
		before, after int64
		// hasB and hasA say the block's used line was read; inWin that its
		// after mark lies in [from, to).
		hasB, hasA, inWin bool
	}
	blocks := map[string]*block{}
	var order []string
	var cur *block
	var curAfter bool
	if from > 0 {
		// The first line of a log read from an arbitrary byte may be cut.
		if i := bytes.IndexByte(log, '\n'); i >= 0 && i < from {
			log, from, to = log[i+1:], from-(i+1), to-(i+1)
		}
	}
	off := 0
	for len(log) > 0 {
		line := log
		next := len(log)
		if i := bytes.IndexByte(log, '\n'); i >= 0 {
			line, next = log[:i], i+1
		}
		at := off
		log, off = log[next:], off+next
		if m := gcHeapMark.FindSubmatch(line); m != nil {
			id := string(m[1])
			b := blocks[id]
			if b == nil {
				b = &block{}
				blocks[id] = b
				order = append(order, id)
			}
			cur, curAfter = b, string(m[2]) == "after"
			if curAfter {
				b.hasA, b.after, b.inWin = false, 0, at >= from && at < to
			} else {
				b.hasB, b.before = false, 0
			}
			// JDK 11 prints the first generation on the mark's own line
			// ("Heap before GC invocations=0 (full 0): garbage-first heap
			// total 65536K, used 7168K ..."); JDK 17 on the next.
		}
		if cur == nil {
			continue
		}
		if m := gcUsed.FindSubmatch(line); m != nil {
			kb, err := strconv.ParseInt(string(m[2]), 10, 64)
			if err != nil {
				continue
			}
			if curAfter {
				cur.after += kb << 10
				cur.hasA = true
			} else {
				cur.before += kb << 10
				cur.hasB = true
			}
		}
	}
	for _, id := range order {
		b := blocks[id]
		if b.hasB && b.hasA && b.inWin {
			freed += b.before - b.after
			collections++
		}
	}
	return freed, collections
}
