package servercost

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// perfMagic opens every hsperfdata file, in big-endian order whatever the
// byte order of the entries.
const perfMagic = 0xcafec0c0

// PerfCounters are a JVM's long-valued performance counters by name, as
// `jcmd <pid> PerfCounter.print` shows them.
type PerfCounters map[string]int64

// PerfDataPath is where the JVM of pid publishes its counters: the system
// temp dir (not java.io.tmpdir), in a directory named for the JVM's user.
func PerfDataPath(pid int) (string, error) {
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return "", fmt.Errorf("process %d: %w", pid, err)
	}
	uid := fileUID(fi)
	name := strconv.Itoa(int(uid))
	if u, err := lookupUser(uid); err == nil {
		name = u
	}
	tmp := os.Getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, "hsperfdata_"+name, strconv.Itoa(pid)), nil
}

// parsePerfData decodes the PerfDataPrologue and its entries (OpenJDK's
// perfMemory.hpp): a 32-byte prologue, then entries of a fixed header, a
// NUL-terminated name and a value.
func parsePerfData(b []byte) (PerfCounters, error) {
	if len(b) < 32 || binary.BigEndian.Uint32(b) != perfMagic {
		return nil, errors.New("not an hsperfdata file (bad magic)")
	}
	var bo binary.ByteOrder = binary.BigEndian
	if b[4] == 1 {
		bo = binary.LittleEndian
	}
	off := int(int32(bo.Uint32(b[24:])))
	n := int(int32(bo.Uint32(b[28:])))
	if off < 32 || n < 0 || n > 1<<20 {
		return nil, fmt.Errorf("hsperfdata: bad entry table (offset %d, %d entries)", off, n)
	}
	out := make(PerfCounters, n)
	for i := 0; i < n; i++ {
		if off+20 > len(b) {
			return nil, fmt.Errorf("hsperfdata: entry %d of %d runs past the file's end", i, n)
		}
		e := b[off:]
		length := int(int32(bo.Uint32(e)))
		nameOff := int(int32(bo.Uint32(e[4:])))
		vecLen := int(int32(bo.Uint32(e[8:])))
		typ := e[12]
		dataOff := int(int32(bo.Uint32(e[16:])))
		if length <= 0 || off+length > len(b) || nameOff < 20 || nameOff >= length || dataOff >= length {
			return nil, fmt.Errorf("hsperfdata: entry %d has a bad layout", i)
		}
		name := e[nameOff:length]
		for j, c := range name {
			if c == 0 {
				name = name[:j]
				break
			}
		}
		if typ == 'J' && vecLen == 0 && dataOff+8 <= length {
			out[string(name)] = int64(bo.Uint64(e[dataOff:]))
		}
		off += length
	}
	return out, nil
}

// HeapUsed sums the used bytes of every space of every generation.
func (p PerfCounters) HeapUsed() int64 {
	var used int64
	for g := 0; g < 4; g++ {
		spaces, ok := p[fmt.Sprintf("sun.gc.generation.%d.spaces", g)]
		if !ok {
			break
		}
		for s := int64(0); s < spaces; s++ {
			used += p[fmt.Sprintf("sun.gc.generation.%d.space.%d.used", g, s)]
		}
	}
	return used
}

// GCs returns the collections (stop-the-world pauses) so far and their time.
func (p PerfCounters) GCs() (n int64, pause time.Duration) {
	freq := p["sun.os.hrt.frequency"]
	var ticks int64
	for c := 0; c < 8; c++ {
		inv, ok := p[fmt.Sprintf("sun.gc.collector.%d.invocations", c)]
		if !ok {
			break
		}
		n += inv
		ticks += p[fmt.Sprintf("sun.gc.collector.%d.time", c)]
	}
	if freq > 0 {
		pause = time.Duration(float64(ticks) / float64(freq) * 1e9)
	}
	return n, pause
}
