package profile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

const (
	get     = "java.lang.Thread.run;org.apache.hadoop.hbase.ipc.RpcHandler.run;org.apache.hadoop.hbase.regionserver.RSRpcServices.get;org.apache.hadoop.hbase.regionserver.HRegion.get"
	preGet  = get + ";org.apache.hadoop.hbase.regionserver.RegionCoprocessorHost.preGet"
	burn    = preGet + ";org.regress.testdata.SlowGetObserver.preGetOp;org.regress.testdata.SlowGetObserver.burn"
	scan    = get + ";org.apache.hadoop.hbase.regionserver.StoreScanner.next"
	block   = get + ";org.apache.hadoop.hbase.io.hfile.BlockCacheUtil.getBlock"
	network = "java.lang.Thread.run;org.apache.hadoop.hbase.ipc.NettyRpcServer.read;jdk.internal.misc.Unsafe.copyMemory"
)

// slowGet is a baseline and a candidate that served 10% more operations and
// spends new CPU in SlowGetObserver.burn, less in the block cache, and the
// same per operation everywhere else.
func slowGet() (base, cand Side) {
	base = Side{Ops: 1_000_000, Stacks: Folded{scan: 400, preGet: 5, network: 200, block: 100}}
	cand = Side{Ops: 1_100_000, Stacks: Folded{scan: 440, preGet: 6, network: 220, block: 66, burn: 300}}
	return base, cand
}

func TestDiff(t *testing.T) {
	base, cand := slowGet()
	leaf := func(s string) string { return s[strings.LastIndexByte(s, ';')+1:] }
	for _, tc := range []struct {
		name       string
		base, cand Side
		top        int
		wantFrames []string  // leading frames, in order
		wantDelta  []float64 // their self change per op
		wantStack  string    // the leading stack
		wantLen    int
	}{
		{name: "an added cost leads, a shrunk one follows", base: base, cand: cand,
			wantFrames: []string{leaf(burn), leaf(block), leaf(preGet)},
			wantDelta:  []float64{300 / 1.1e6, 66/1.1e6 - 100/1e6, 6/1.1e6 - 5/1e6},
			wantStack:  burn, wantLen: 3},
		{name: "twice the operations and twice the samples is no change", top: 3,
			base: Side{Ops: 1000, Stacks: Folded{scan: 40, network: 20}}, cand: Side{Ops: 2000, Stacks: Folded{scan: 80, network: 40}},
			wantFrames: nil, wantDelta: nil, wantLen: 0},
		{name: "top caps the frames", base: base, cand: cand, top: 2,
			wantFrames: []string{leaf(burn), leaf(block)}, wantDelta: []float64{300 / 1.1e6, 66/1.1e6 - 100/1e6}, wantStack: burn, wantLen: 2},
		{name: "a frame gone from the candidate shows as shrunk",
			base: Side{Ops: 10, Stacks: Folded{"a;b": 5, "a;c": 5}}, cand: Side{Ops: 10, Stacks: Folded{"a;c": 5}},
			wantFrames: []string{"b"}, wantDelta: []float64{-0.5}, wantStack: "a;b", wantLen: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Diff(CPU, tc.base, tc.cand, tc.top)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Frames) != tc.wantLen {
				t.Errorf("%d frames, want %d", len(d.Frames), tc.wantLen)
			}
			for i, f := range tc.wantFrames {
				if i >= len(d.Frames) || d.Frames[i].Frame != f {
					t.Fatalf("frame %d = %+v, want %s", i, d.Frames, f)
				}
				if got := d.Frames[i].Self.Delta(); math.Abs(got-tc.wantDelta[i]) > 1e-12 {
					t.Errorf("frame %s self change per op = %g, want %g", f, got, tc.wantDelta[i])
				}
			}
			if tc.wantFrames == nil {
				for _, f := range d.Frames {
					if math.Abs(f.Self.Delta()) > 1e-15 || math.Abs(f.Total.Delta()) > 1e-15 {
						t.Errorf("frame %s changed by %g self, %g total per op; want no change", f.Frame, f.Self.Delta(), f.Total.Delta())
					}
				}
			}
			if tc.wantStack != "" && d.Stacks[0].Stack != tc.wantStack {
				t.Errorf("leading stack = %s, want %s", d.Stacks[0].Stack, tc.wantStack)
			}
		})
	}
}

func TestDiffSharesAndTotals(t *testing.T) {
	base, cand := slowGet()
	d, err := Diff(CPU, base, cand, 0)
	if err != nil {
		t.Fatal(err)
	}
	var burnF, getF *FrameChange
	for i := range d.Frames {
		switch d.Frames[i].Frame {
		case "org.regress.testdata.SlowGetObserver.burn":
			burnF = &d.Frames[i]
		}
	}
	if burnF == nil {
		t.Fatalf("no burn frame in %+v", d.Frames)
	}
	if burnF.Self.BaseShare != 0 || math.Abs(burnF.Self.CandShare-300.0/1032) > 1e-12 || burnF.Total.CandShare != burnF.Self.CandShare {
		t.Errorf("burn shares = %+v, want 0 and 300/1032 self and total", burnF)
	}
	// A recursive frame counts once in its total, or its share could pass 100%.
	d, err = Diff(CPU, Side{Ops: 1, Stacks: Folded{"a;a;a": 4}}, Side{Ops: 1, Stacks: Folded{"a;a;a": 8, "b": 8}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Frames {
		if d.Frames[i].Frame == "a" {
			getF = &d.Frames[i]
		}
	}
	if getF == nil || getF.Total.BaseShare != 1 || getF.Total.CandShare != 0.5 {
		t.Errorf("recursive frame a = %+v, want total shares 1 and 0.5", getF)
	}
}

func TestDiffRefusesWhatCannotBeNormalised(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, cand Side
		want       string
	}{
		{"no baseline ops", Side{Stacks: Folded{"a": 1}}, Side{Ops: 1, Stacks: Folded{"a": 1}}, "needs the operations"},
		{"negative candidate ops", Side{Ops: 1, Stacks: Folded{"a": 1}}, Side{Ops: -1}, "needs the operations"},
		{"no samples either side", Side{Ops: 1}, Side{Ops: 1, Stacks: Folded{}}, "neither side recorded a sample"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Diff(Alloc, tc.base, tc.cand, 0); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Diff error = %v, want one saying %q", err, tc.want)
			}
			if err := WriteFlameGraph(io.Discard, "x", Alloc, tc.base, tc.cand); tc.want == "needs the operations" && err == nil {
				t.Error("WriteFlameGraph accepted a side without operations")
			}
		})
	}
}

func TestDiffTableGolden(t *testing.T) {
	base, cand := slowGet()
	allocBase := Side{Ops: 1_000_000, Stacks: Folded{scan: 400 << 20, network: 200 << 20, block: 100 << 20}}
	allocCand := Side{Ops: 1_100_000, Stacks: Folded{scan: 440 << 20, network: 330 << 20, block: 110 << 20, burn: 1 << 20}}
	for _, tc := range []struct {
		golden     string
		kind       Kind
		base, cand Side
	}{
		{"diff_cpu.txt", CPU, base, cand},
		{"diff_alloc.txt", Alloc, allocBase, allocCand},
		{"diff_alloc_p.txt", Alloc, withSamples(allocBase, 512<<10), withSamples(allocCand, 512<<10)},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			d, err := Diff(tc.kind, tc.base, tc.cand, 0)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteDiffTable(&b, d); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, b.Bytes())
		})
	}
}

// withSamples gives s the sample counts of a recorder whose every sample
// weighed perSample bytes (at least one a stack).
func withSamples(s Side, perSample int64) Side {
	s.Samples = Folded{}
	for st, w := range s.Stacks {
		s.Samples[st] = max(1, w/perSample)
	}
	return s
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestShortFrame(t *testing.T) {
	for in, want := range map[string]string{
		"org.regress.testdata.SlowGetObserver.burn": "SlowGetObserver.burn",
		"Burner.spin": "Burner.spin",
		"main":        "main",
		"[truncated]": "[truncated]",
		"org.apache.hadoop.hbase.http.PrometheusHadoopServlet$$Lambda.get":                               "PrometheusHadoopServlet (lambda).get",
		"org.apache.hadoop.hbase.http.PrometheusHadoopServlet$$Lambda+0x0000000800c3d440.1852655488.get": "PrometheusHadoopServlet (lambda).get", // as stored before
		"org.apache.hadoop.hbase.regionserver.HRegion$RegionScannerImpl$$Lambda.apply":                   "HRegion$RegionScannerImpl (lambda).apply",
		"org.apache.hadoop.hbase.regionserver.HRegion.lambda$get$3":                                      "HRegion.lambda$get",
		"java.lang.invoke.LambdaForm$MH.invoke":                                                          "LambdaForm$MH.invoke",
		"$$Lambda.get":                                                                                   "[unknown] (lambda).get",
	} {
		if got := ShortFrame(in); got != want {
			t.Errorf("ShortFrame(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShortStack(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"a;b;c", 5, "a;b;c"},
		{"p.A.a;p.B.b;q.r.C.c", 3, "A.a;B.b;C.c"},
		{"p.A.a;p.B.b;q.r.C.c;D.d", 2, "…;C.c;D.d"},
		// A lambda calling its body is named by the method that wrote it.
		{"p.Foo.bar;p.Foo$$Lambda.get;p.Foo.lambda$bar$3;p.Baz.qux", 3, "…;Foo.bar (lambda);Foo.lambda$bar;Baz.qux"},
		// The body is the leaf.
		{"p.Foo$$Lambda.get;p.Foo.lambda$bar$3", 1, "…;Foo.lambda$bar"},
		{"p.Foo$$Lambda.get;p.Foo.lambda$bar$3", 2, "Foo.bar (lambda);Foo.lambda$bar"},
		// A method reference calls the method itself: the lambda keeps its class.
		{"p.Foo$$Lambda.apply;java.util.ArrayList.<init>", 2, "Foo (lambda).apply;ArrayList.<init>"},
		// The lambda as the leaf (it allocated, or ran itself).
		{"p.Foo.bar;p.Foo$$Lambda.get", 2, "Foo.bar;Foo (lambda).get"},
		{"p.Foo.bar;p.Foo$$Lambda+0x0000000800c3d440.1852655488.get", 2, "Foo.bar;Foo (lambda).get"},
	} {
		if got := ShortStack(tc.in, tc.n); got != tc.want {
			t.Errorf("ShortStack(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

var fillOf = regexp.MustCompile(`<title>([^&]*)&#10;[^<]*</title><rect [^>]*fill="rgb\((\d+),(\d+),(\d+)\)"`)

func TestFlameGraphColoursGrownRedAndShrunkBlue(t *testing.T) {
	base, cand := slowGet()
	var b bytes.Buffer
	if err := WriteFlameGraph(&b, "workloadc <cpu> & more", CPU, base, cand); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("flame graph is not well-formed XML: %v", err)
			}
			break
		}
	}
	for _, bad := range []string{"<script", "href", "https:"} {
		if strings.Contains(svg, bad) {
			t.Errorf("flame graph contains %q: it must not fetch or run anything", bad)
		}
	}
	colour := map[string][3]int{}
	for _, m := range fillOf.FindAllStringSubmatch(svg, -1) {
		var c [3]int
		for i := range c {
			for _, ch := range m[2+i] {
				c[i] = c[i]*10 + int(ch-'0')
			}
		}
		colour[m[1]] = c
	}
	for _, tc := range []struct {
		frame string
		check func(c [3]int) bool
		want  string
	}{
		{"org.regress.testdata.SlowGetObserver.burn", func(c [3]int) bool { return c[0] == 255 && c[1] < 100 }, "deep red"},
		{"org.apache.hadoop.hbase.io.hfile.BlockCacheUtil.getBlock", func(c [3]int) bool { return c[2] == 255 && c[0] < 245 }, "blue"},
		{"org.apache.hadoop.hbase.regionserver.StoreScanner.next", func(c [3]int) bool { return c == [3]int{245, 245, 245} }, "white (no change per op)"},
	} {
		c, ok := colour[tc.frame]
		if !ok {
			t.Errorf("no frame %s in the flame graph", tc.frame)
			continue
		}
		if !tc.check(c) {
			t.Errorf("%s is rgb%v, want %s", tc.frame, c, tc.want)
		}
	}
}

// TestCountPIsTheBinomialTail: with equal operations a frame's samples
// split as fair coin flips, so all ten on one side has P = 1/1024 either
// way, an even split is no finding, and more operations on the candidate
// side make the same counts less surprising.
func TestCountPIsTheBinomialTail(t *testing.T) {
	for _, tc := range []struct {
		b, c       int64
		bOps, cOps float64
		want       float64
	}{
		{0, 10, 1, 1, 1.0 / 1024},
		{10, 0, 1, 1, 1.0 / 1024},
		{5, 5, 1, 1, 638.0 / 1024}, // P(X >= 5), X ~ Binomial(10, 1/2)
		{0, 0, 1, 1, 1},
		{0, 3, 1, 3, 27.0 / 64}, // q = 3/4: P(X >= 3 of 3) = (3/4)^3
	} {
		if got := countP(tc.b, tc.c, tc.bOps, tc.cOps); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("countP(%d, %d, %g, %g) = %g, want %g", tc.b, tc.c, tc.bOps, tc.cOps, got, tc.want)
		}
	}
	// A frame that only a burn explains stays far below FrameAlpha; one
	// sample more or less of a common frame is no finding.
	if p := countP(0, 300, 1000, 1100); p > 1e-50 {
		t.Errorf("a frame only the candidate ran 300 times has P %g", p)
	}
	if p := countP(12, 14, 1000, 1000); p < FrameAlpha {
		t.Errorf("12 vs 14 samples at equal operations has P %g, below FrameAlpha", p)
	}
}

// jfrAllocSide draws one side's allocation profile the way JFR's throttled
// sampler records it: samples a second whatever the rate, each landing on a
// stack in proportion to the bytes it allocates and weighing the bytes its
// thread allocated since its previous sample (spread as an exponential).
func jfrAllocSide(rng *rand.Rand, ops int64, bytesPerOp map[string]float64, samples int) Side {
	stacks := slices.Sorted(maps.Keys(bytesPerOp))
	var perOp float64
	for _, s := range stacks {
		perOp += bytesPerOp[s]
	}
	mean := perOp * float64(ops) / float64(samples)
	side := Side{Ops: ops, Stacks: Folded{}, Samples: Folded{}}
	for range samples {
		u := rng.Float64() * perOp
		s := stacks[len(stacks)-1]
		for _, st := range stacks {
			if u -= bytesPerOp[st]; u < 0 {
				s = st
				break
			}
		}
		side.Stacks[s] += int64(rng.ExpFloat64()*mean) + 1
		side.Samples[s]++
	}
	return side
}

// TestAllocPSeesGrowthAndNotNoise: a frame whose bytes per operation grew
// by half has a P far below FrameAlpha; with the same bytes per operation
// on both sides (the candidate serving 30% more operations, its recorder
// kept to the same samples a second) a frame passes FrameAlpha about as
// often as FrameAlpha says, where the bytes taken for counts would pass in
// nearly every seed.
func TestAllocPSeesGrowthAndNotNoise(t *testing.T) {
	const x, y, z = "a;b;x", "a;b;y", "a;c;z"
	base := map[string]float64{x: 2000, y: 8000, z: 1000}
	grown := map[string]float64{x: 3000, y: 8000, z: 1000}
	pOf := func(d *Differential, frame string) (float64, bool) {
		for _, f := range d.Frames {
			if f.Frame == frame {
				return f.P, f.Self.Delta() > 0
			}
		}
		return 1, false
	}
	rng := rand.New(rand.NewPCG(31, 7))
	for seed := range 20 {
		d, err := Diff(Alloc, jfrAllocSide(rng, 1_000_000, base, 3000), jfrAllocSide(rng, 1_100_000, grown, 3000), 0)
		if err != nil {
			t.Fatal(err)
		}
		if p, grew := pOf(d, "x"); !grew || p > 1e-6 {
			t.Errorf("seed %d: x grew by half per op; P = %g, grew %v; want P below 1e-6", seed, p, grew)
		}
	}

	const seeds = 400
	passed, bytesPassed := 0, 0
	var ps []float64
	for range seeds {
		b, c := jfrAllocSide(rng, 1_000_000, base, 3000), jfrAllocSide(rng, 1_300_000, base, 3000)
		d, err := Diff(Alloc, b, c, 0)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := pOf(d, "x")
		if p == 0 {
			t.Fatalf("frame x has no P with both sides' samples counted: %+v", d.Frames)
		}
		ps = append(ps, p)
		if p <= FrameAlpha {
			passed++
		}
		self := func(f Folded) (n int64) {
			for s, w := range f {
				if strings.HasSuffix(s, ";x") {
					n += w
				}
			}
			return n
		}
		if countP(self(b.Stacks), self(c.Stacks), float64(b.Ops), float64(c.Ops)) <= FrameAlpha {
			bytesPassed++
		}
	}
	slices.Sort(ps)
	t.Logf("noise, %d seeds: P <= %g in %d from the samples, %d from the bytes taken for counts; median P %.2g", seeds, FrameAlpha, passed, bytesPassed, ps[seeds/2])
	// One-sided in either direction: 2*FrameAlpha of the seeds pass by
	// chance; allow for 400 draws and the weights' spread.
	if rate := float64(passed) / seeds; rate > 3*FrameAlpha {
		t.Errorf("noise: frame x passed FrameAlpha in %d of %d seeds (%.1f%%), want about %.0f%%", passed, seeds, 100*rate, 200*FrameAlpha)
	}
	if median := ps[seeds/2]; median < 0.1 {
		t.Errorf("noise: median P %g, want one well above FrameAlpha", median)
	}
	if bytesPassed < seeds*9/10 {
		t.Errorf("bytes taken for counts passed in %d of %d seeds; the test's noise is too weak to show why samples are counted", bytesPassed, seeds)
	}
}

// TestAllocFramesWithoutSamplesHaveNoP: stacks stored before the samples
// were counted give allocation frames no P, which the vote paragraph reads
// as not passing.
func TestAllocFramesWithoutSamplesHaveNoP(t *testing.T) {
	base := Side{Ops: 10, Stacks: Folded{"a;x": 1000, "a;y": 1000}}
	cand := Side{Ops: 10, Stacks: Folded{"a;x": 5000, "a;y": 1000}}
	for _, tc := range []struct {
		name       string
		base, cand Side
		wantP      bool
	}{
		{"neither counted", base, cand, false},
		{"one side counted", withSamples(base, 100), cand, false},
		{"both counted", withSamples(base, 100), withSamples(cand, 100), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Diff(Alloc, tc.base, tc.cand, 0)
			if err != nil {
				t.Fatal(err)
			}
			if d.HasP() != tc.wantP || (d.Frames[0].P > 0) != tc.wantP {
				t.Errorf("HasP = %v, x's P = %g; want a P: %v", d.HasP(), d.Frames[0].P, tc.wantP)
			}
		})
	}
}

// TestAnEmptySideIsTestedAsNone: a side that counted its waits (or
// allocation samples) and recorded none is no side that did not count
// them: its frames are tested as shrunk to nothing, with a P, where an
// uncounted side leaves them without one. A loaded machine's candidate
// recorded no wait above JFR's threshold in a pair.
func TestAnEmptySideIsTestedAsNone(t *testing.T) {
	for _, kind := range []Kind{Wait, Alloc} {
		base := Side{Ops: 1000, Stacks: Folded{"rpc;lock": 40_000}, Samples: Folded{"rpc;lock": 40}}
		for _, tc := range []struct {
			name  string
			cand  Side
			wantP bool
		}{
			{"recorded none", Side{Ops: 1000, Stacks: Folded{}, Samples: Folded{}}, true},
			{"not counted", Side{Ops: 1000, Stacks: Folded{}}, false},
		} {
			t.Run(string(kind)+"/"+tc.name, func(t *testing.T) {
				d, err := Diff(kind, base, tc.cand, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(d.Frames) == 0 || d.Frames[0].Frame != "lock" || d.CandTotal != 0 {
					t.Fatalf("frames %+v: want lock shrunk to nothing", d.Frames)
				}
				p := d.Frames[0].P
				if tc.wantP && (p <= 0 || p > FrameAlpha) || !tc.wantP && p != 0 {
					t.Errorf("lock's P %g (40 events on the baseline, none on the candidate); want one within %g: %v", p, FrameAlpha, tc.wantP)
				}
			})
		}
	}
}

// TestFlameGraphNamesWhatTheCandidateLacks: a candidate that recorded no
// wait says so in the wait graph's own words, not in CPU samples'.
func TestFlameGraphNamesWhatTheCandidateLacks(t *testing.T) {
	var b strings.Builder
	base := Side{Ops: 10, Stacks: Folded{"rpc;lock": 100}}
	if err := WriteFlameGraph(&b, "workloadc waits", Wait, base, Side{Ops: 10, Stacks: Folded{}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "the candidate recorded no wait time") || strings.Contains(b.String(), "CPU samples") {
		t.Errorf("wait graph of an empty candidate:\n%s", b.String())
	}
}
