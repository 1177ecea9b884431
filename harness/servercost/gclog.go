package servercost

import (
	"bufio"
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
	type block struct {
		before, after int64
		hasB, hasA    bool
	}
	blocks := map[string]*block{}
	var order []string
	var cur *block
	var curAfter bool
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
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
				b.hasA, b.after = true, 0
			} else {
				b.hasB, b.before = true, 0
			}
			continue
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
			} else {
				cur.before += kb << 10
			}
		}
	}
	for _, id := range order {
		b := blocks[id]
		if b.hasB && b.hasA {
			freed += b.before - b.after
			collections++
		}
	}
	return freed, collections
}
