package profile

import (
	"reflect"
	"testing"
)

// cpuPair is a pair of CPU profiles of 10,000 operations a side.
func cpuPair(w string, base, cand Folded) Pair {
	return Pair{Workload: w, Base: Side{Stacks: base, Ops: 10000}, Cand: Side{Stacks: cand, Ops: 10000}}
}

const (
	handler = "Thread.run;RpcHandler.run;RSRpcServices.get"
	read    = handler + ";HRegion.get;StoreScanner.next;HFileReaderImpl.readBlock"
)

func TestFindCauseNamesWhereTheCandidatesStacksPart(t *testing.T) {
	base := Folded{read + ";LruBlockCache.getBlock": 400, handler + ";RpcServer.send": 300}
	cand := Folded{read + ";LruBlockCache.getBlock": 410, handler + ";RpcServer.send": 290,
		read + ";HFileReaderImpl.cacheIfCompactionsOff;HFileLink.isHFileLink;Pattern.matcher":     60,
		read + ";HFileReaderImpl.cacheIfCompactionsOff;StoreFileInfo.isReference;Pattern.matcher": 30}
	pairs := []Pair{cpuPair("workloadb", base, cand), cpuPair("workloadc", base, cand), cpuPair("workloadd", base, cand)}
	c, ok := FindCause(CPU, pairs)
	if !ok {
		t.Fatal("no cause named for a new path in three pairs")
	}
	want := []string{"HFileReaderImpl.readBlock", "HFileReaderImpl.cacheIfCompactionsOff", "HFileLink.isHFileLink", "Pattern.matcher"}
	if !reflect.DeepEqual(c.Path, want) || c.Shared != 1 {
		t.Fatalf("path %v shared %d, want %v shared 1", c.Path, c.Shared, want)
	}
	if !reflect.DeepEqual(c.Workloads, []string{"workloadb", "workloadc", "workloadd"}) {
		t.Errorf("workloads %v", c.Workloads)
	}
	if c.BaseShare != 0 || c.CandShare <= 0 || c.P > CauseAlpha {
		t.Errorf("shares %v -> %v, p %v", c.BaseShare, c.CandShare, c.P)
	}
	if got := c.CauseLine(3); got != "HFileReaderImpl.readBlock -> … -> HFileLink.isHFileLink -> Pattern.matcher" {
		t.Errorf("CauseLine(3) = %q", got)
	}
}

func TestFindCauseNamesNothingFromOneRecordingOrAMove(t *testing.T) {
	base := Folded{read + ";LruBlockCache.getBlock": 400}
	grown := Folded{read + ";LruBlockCache.getBlock": 400, read + ";Codec.decode": 90}
	moved := Folded{read + ";LruBlockCache.getBlock": 310, read + ";Codec.decode": 90}
	for _, c := range []struct {
		name  string
		pairs []Pair
	}{
		// A cost seen in one pair of three, absent from the others, may be
		// that recording's (a stall, a compaction): not named.
		{"one pair of three", []Pair{cpuPair("a", base, grown), cpuPair("b", base, base), cpuPair("c", base, base)}},
		// Grown in one pair, shrunk in the other: not consistent.
		{"opposite pairs", []Pair{cpuPair("a", base, grown), cpuPair("b", grown, base)}},
		// One JVM's JIT moving samples between a caller's frames, the
		// caller's cost the same: a new frame, but no cost added.
		{"a move", []Pair{cpuPair("a", base, moved), cpuPair("b", base, moved)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, ok := FindCause(CPU, c.pairs); ok {
				t.Errorf("named %+v", got)
			}
		})
	}
}

func TestFindCauseNamesAFrameThatGotCostlier(t *testing.T) {
	base := Folded{read + ";Codec.decode": 200, read + ";LruBlockCache.getBlock": 200, handler + ";RpcServer.send": 300}
	cand := Folded{read + ";Codec.decode": 320, read + ";LruBlockCache.getBlock": 200, handler + ";RpcServer.send": 300}
	c, ok := FindCause(CPU, []Pair{cpuPair("a", base, cand), cpuPair("b", base, cand)})
	if !ok {
		t.Fatal("no cause for a frame 60% costlier in two pairs")
	}
	if want := []string{"HFileReaderImpl.readBlock", "Codec.decode"}; !reflect.DeepEqual(c.Path, want) || c.Shared != 0 {
		t.Fatalf("path %v shared %d, want %v shared 0", c.Path, c.Shared, want)
	}
}

func TestFindCauseAllocationNeedsItsSamples(t *testing.T) {
	base := Folded{read + ";Buf.alloc": 4000000}
	cand := Folded{read + ";Buf.alloc": 4000000, read + ";Pattern.matcher;Matcher.<init>": 2000000}
	pr := Pair{Workload: "a", Base: Side{Stacks: base, Ops: 10000}, Cand: Side{Stacks: cand, Ops: 10000}}
	if c, ok := FindCause(Alloc, []Pair{pr, pr}); ok {
		t.Fatalf("named %+v without allocation samples", c)
	}
	pr.Base.Samples = Folded{read + ";Buf.alloc": 400}
	pr.Cand.Samples = Folded{read + ";Buf.alloc": 400, read + ";Pattern.matcher;Matcher.<init>": 200}
	c, ok := FindCause(Alloc, []Pair{pr, pr})
	if !ok {
		t.Fatal("no cause with the samples counted")
	}
	if want := []string{"HFileReaderImpl.readBlock", "Pattern.matcher", "Matcher.<init>"}; !reflect.DeepEqual(c.Path, want) {
		t.Fatalf("path %v, want %v", c.Path, want)
	}
	if c.DeltaPerOp != 200 {
		t.Errorf("delta %v bytes/op, want 200", c.DeltaPerOp)
	}
}

// A wait the candidate's request threads meet where the baseline's met
// none above the threshold (an empty side, its events counted) is named.
func TestFindCauseNamesAWaitTheBaselineNeverMet(t *testing.T) {
	const (
		wait = handler + ";HRegion.get;WaitObserver.preGetOp;WaitObserver.waitFor;LockSupport.parkNanos"
		sync = "Thread.run;RpcHandler.run;RSRpcServices.multi;HRegion.put;SyncFuture.get"
	)
	pr := Pair{Workload: "workloadb",
		Base: Side{Stacks: Folded{sync: 900000}, Samples: Folded{sync: 9000}, Ops: 10000},
		Cand: Side{Stacks: Folded{sync: 900000, wait: 600000}, Samples: Folded{sync: 9000, wait: 6000}, Ops: 10000}}
	c, ok := FindCause(Wait, []Pair{pr, pr})
	if !ok {
		t.Fatal("no cause for waits the baseline never met")
	}
	if c.Path[0] != "RpcHandler.run" || c.Path[1] != "RSRpcServices.get" || c.Shared != 1 {
		t.Errorf("path %v shared %d, want from RpcHandler.run, RSRpcServices.get differing", c.Path, c.Shared)
	}
	if got := c.CauseLine(5); got != "RpcHandler.run -> RSRpcServices.get -> HRegion.get -> … -> WaitObserver.waitFor -> LockSupport.parkNanos" {
		t.Errorf("CauseLine(5) = %q", got)
	}
	pr.Base.Samples = nil // stored before waits were counted
	if c, ok := FindCause(Wait, []Pair{pr, pr}); ok {
		t.Errorf("named %+v from a side whose events were never counted", c)
	}
}

// A JVM sampled more often than the other (JFR's sampler is no fixed
// slice of CPU) counts more samples on every path; with the sides' CPU
// per operation known, paths are read as shares of it: nothing is named
// for the sampling, and a path the candidate added is, in µs an operation.
func TestFindCauseReadsCPUSamplesAsSharesOfTheMeasuredCost(t *testing.T) {
	base := Folded{read + ";LruBlockCache.getBlock": 150, handler + ";RpcServer.send": 230}
	oftener := Folded{read + ";LruBlockCache.getBlock": 252, handler + ";RpcServer.send": 382}
	pair := func(w string, cand Folded) Pair {
		p := cpuPair(w, base, cand)
		p.BaseCPUPerOp, p.CandCPUPerOp = 200, 210
		return p
	}
	if c, ok := FindCause(CPU, []Pair{pair("b", oftener), pair("c", oftener), pair("d", oftener)}); ok {
		t.Errorf("named %+v where the candidate JVM was only sampled more often", c)
	}
	added := Folded{read + ";LruBlockCache.getBlock": 150, handler + ";RpcServer.send": 230,
		read + ";HFileReaderImpl.cacheIfCompactionsOff;Pattern.matcher": 25}
	c, ok := FindCause(CPU, []Pair{pair("b", added), pair("c", added), pair("d", added)})
	if !ok || !c.CPUMicros || c.Path[1] != "HFileReaderImpl.cacheIfCompactionsOff" {
		t.Fatalf("cause %+v (%v), want the added path in µs", c, ok)
	}
	// 25 of 405 samples of 210 µs: about 13 µs an operation.
	if c.DeltaPerOp < 12 || c.DeltaPerOp > 14 {
		t.Errorf("growth %.1f µs/op, want about 13", c.DeltaPerOp)
	}
}

// TestCauseLineKeepsTheApplicationsFrames: a path too long for the line
// folds the JDK's frames between its start and its leaf first, so the
// application's frame that makes the cost stays named; a path still too
// long keeps its start, the application's last frame and the leaf.
func TestCauseLineKeepsTheApplicationsFrames(t *testing.T) {
	// HBASE-29099's BlockCacheKey.toString under readBlock (2.6.2 -> 2.6.1).
	bloom := []string{
		"org.apache.hadoop.hbase.io.hfile.CompoundBloomFilter.containsInternal",
		"org.apache.hadoop.hbase.io.hfile.CompoundBloomFilter.getBloomBlock",
		"org.apache.hadoop.hbase.io.hfile.HFileReaderImpl.readBlock",
		"org.apache.hadoop.hbase.io.hfile.BlockCacheKey.toString",
		"java.lang.StringBuilder.append",
		"java.lang.AbstractStringBuilder.append",
		"java.lang.AbstractStringBuilder.ensureCapacityInternal",
		"java.util.Arrays.copyOf",
	}
	// HBASE-29160's region name rendered for every span (2.6.3 -> 2.6.2).
	span := []string{
		"org.apache.hadoop.hbase.trace.TraceUtil.trace",
		"org.apache.hadoop.hbase.regionserver.RegionScannerImpl.closeInternal",
		"org.apache.hadoop.hbase.regionserver.RegionScannerImpl.closeSpan",
		"org.apache.hadoop.hbase.regionserver.HRegion.createRegionSpan",
		"org.apache.hadoop.hbase.client.MutableRegionInfo.getRegionNameAsString",
		"org.apache.hadoop.hbase.client.RegionInfo.getRegionNameAsString",
		"org.apache.hadoop.hbase.util.Bytes.toStringBinary",
		"java.lang.StringBuilder.append",
		"java.lang.AbstractStringBuilder.ensureCapacityInternal",
		"java.util.Arrays.copyOf",
	}
	for _, tc := range []struct {
		name      string
		path      []string
		maxFrames int
		want      string
	}{
		{"the JDK's middle folded", bloom, 6, "CompoundBloomFilter.containsInternal -> CompoundBloomFilter.getBloomBlock -> HFileReaderImpl.readBlock -> BlockCacheKey.toString -> … -> Arrays.copyOf"},
		{"room for every frame", bloom, 8, "CompoundBloomFilter.containsInternal -> CompoundBloomFilter.getBloomBlock -> HFileReaderImpl.readBlock -> BlockCacheKey.toString -> StringBuilder.append -> AbstractStringBuilder.append -> AbstractStringBuilder.ensureCapacityInternal -> Arrays.copyOf"},
		{"the application's last frame kept", span, 6, "TraceUtil.trace -> RegionScannerImpl.closeInternal -> RegionScannerImpl.closeSpan -> HRegion.createRegionSpan -> … -> Bytes.toStringBinary -> … -> Arrays.copyOf"},
		{"no JDK frames: the start and the last two", span[:7], 5, "TraceUtil.trace -> RegionScannerImpl.closeInternal -> RegionScannerImpl.closeSpan -> … -> RegionInfo.getRegionNameAsString -> Bytes.toStringBinary"},
		{"a tiny budget: the start and the leaf", span, 2, "TraceUtil.trace -> … -> Arrays.copyOf"},
	} {
		if got := (Cause{Path: tc.path}).CauseLine(tc.maxFrames); got != tc.want {
			t.Errorf("%s: CauseLine(%d) = %q, want %q", tc.name, tc.maxFrames, got, tc.want)
		}
	}
}
