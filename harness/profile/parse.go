package profile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// JFR event types the parser folds.
const (
	EventExecutionSample = "jdk.ExecutionSample"
	// EventNativeSample samples threads inside a native method, which
	// jdk.ExecutionSample skips: a request thread's native leaf that does
	// not block is folded into CPU under NativeFrame (foldNative).
	EventNativeSample = "jdk.NativeMethodSample"
	EventAllocSample  = "jdk.ObjectAllocationSample"      // JDK 16+: throttled, weighted by bytes
	EventAllocNewTLAB = "jdk.ObjectAllocationInNewTLAB"   // JDK 11: weight tlabSize
	EventAllocOutside = "jdk.ObjectAllocationOutsideTLAB" // JDK 11: weight allocationSize
)

// WaitEvents are the JFR events of a thread waiting without running, each
// with its duration and stack: what a wall-clock (off-CPU) profile is made
// of. A request that waits on a lock, a queue, a sync or a socket spends
// no CPU, so the stack sampler (jdk.ExecutionSample) cannot see it.
var WaitEvents = []string{
	"jdk.ThreadPark",       // LockSupport.park: locks, futures, queues (a WAL sync's SyncFuture)
	"jdk.JavaMonitorEnter", // a contended synchronized block
	"jdk.JavaMonitorWait",  // Object.wait
	"jdk.ThreadSleep",      // Thread.sleep
	"jdk.SocketRead",       // a blocking socket read
	"jdk.SocketWrite",      // a blocking socket write
	"jdk.FileRead",         // a file read (an HFile block not in cache)
	"jdk.FileWrite",        // a file write (the WAL)
	"jdk.FileForce",        // fsync (the WAL's hsync)
}

// RequestFrame marks a stack of a thread serving a request: HBase's RPC
// handlers run each call in CallRunner.run. A wait outside it (a handler
// idle on its call queue, a chore asleep) is no request's time.
const RequestFrame = "org.apache.hadoop.hbase.ipc.CallRunner.run"

// WaitThreshold is the shortest wait the built-in settings record: below
// what a Get spends (a few hundred microseconds here) and above the
// thousands of microsecond parks a loaded handler pool makes in passing.
const WaitThreshold = 20 * time.Microsecond

// PrintStackDepth is the frames `jfr print` keeps a stack: JFR's own
// recording depth, where the tool's default (5) would cut every stack.
const PrintStackDepth = 64

// TruncatedFrame roots a stack the recorder cut at its depth, so the flame
// graph does not claim the deepest frames kept are the thread's roots.
const TruncatedFrame = "[truncated]"

// NativeFrame roots a CPU stack folded from a native method sample: a
// request thread inside a native method that works (zlib, a socket write's
// copy), which jdk.ExecutionSample cannot see. At the root, as a wait's
// kind is, so the native method stays the leaf the differential names and
// the flame graph draws the native cost as a tower of its own.
const NativeFrame = "[native]"

// Profile is one recording folded: CPU samples and allocated bytes per stack.
type Profile struct {
	// CPU is stack -> samples: every thread's jdk.ExecutionSample events,
	// and request threads' jdk.NativeMethodSample events in a native method
	// that does not block, rooted at NativeFrame (foldNative).
	CPU Folded
	// NativeWait counts the request threads' native samples left out of
	// CPU because their leaf blocks (blockingNatives: a socket read, a
	// selector): the wait profile has those waits, from their own events.
	NativeWait Folded
	Alloc      Folded // stack -> bytes, from AllocEvent
	// AllocSamples counts the events behind each of Alloc's stacks: what an
	// allocation frame's P is tested on (allocP), the bytes being no count.
	AllocSamples Folded
	// AllocEvent names the allocation events Alloc came from:
	// EventAllocSample, or the TLAB events where the JDK has no sampled event.
	AllocEvent string
	// Truncated counts the stacks the recorder cut at its stack depth.
	Truncated int
	// Wait is the time request threads spent waiting (WaitEvents), in
	// microseconds per stack: stacks through RequestFrame only, each cut
	// at its leaf to the last frame outside the JDK (the caller that
	// waited, not Unsafe.park), rooted at the event's kind:
	// "[park];...;WaitObserver.waitFor".
	Wait Folded
	// WaitCount counts the events behind each of Wait's stacks: what a
	// wait frame's P is tested on, as allocation's samples are.
	WaitCount Folded
	// AllocSkipped is the weight of each thread's first sampled allocation,
	// left out of Alloc: JFR weighs a sample by the bytes its thread
	// allocated since the thread's previous sample, so the first one in a
	// recording reaches back before it (to the thread's start: 1,730 MB
	// where the 3 s recorded held 323 MB, measured).
	AllocSkipped int64
}

// Parse prints the recording at path with the JDK's `jfr` tool as JSON and folds it.
func Parse(ctx context.Context, jfrTool, path string) (*Profile, error) {
	if jfrTool == "" {
		return nil, &UnavailableError{Reason: "no jfr tool to read " + path + ": it ships with JDK 11 and later; set JAVA_HOME to one"}
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("profile: recording %s: %w", path, err)
	}
	events := append([]string{EventExecutionSample, EventNativeSample, EventAllocSample, EventAllocNewTLAB, EventAllocOutside}, WaitEvents...)
	cmd := exec.CommandContext(ctx, jfrTool, "print", "--json", "--stack-depth", strconv.Itoa(PrintStackDepth),
		"--events", strings.Join(events, ","), path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("profile: %s print: %w", jfrTool, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("profile: run %s print %s: %w", jfrTool, path, err)
	}
	p, perr := ParseJSON(out)
	if perr != nil {
		_, _ = io.Copy(io.Discard, out) // let the tool finish writing before Wait
	}
	werr := cmd.Wait()
	if werr != nil {
		return nil, fmt.Errorf("profile: %s print %s: %w: %s", jfrTool, path, werr, strings.TrimSpace(stderr.String()))
	}
	if perr != nil {
		return nil, fmt.Errorf("profile: %s print %s: %w", jfrTool, path, perr)
	}
	return p, nil
}

// jsonEvent is the part of one `jfr print --json` event the parser reads.
type jsonEvent struct {
	Type   string `json:"type"`
	Values struct {
		StackTrace *struct {
			Truncated bool `json:"truncated"`
			Frames    []struct {
				Method struct {
					Type struct {
						Name string `json:"name"`
					} `json:"type"`
					Name string `json:"name"`
				} `json:"method"`
			} `json:"frames"`
		} `json:"stackTrace"`
		EventThread *struct {
			JavaThreadID flexInt `json:"javaThreadId"`
			OSThreadID   flexInt `json:"osThreadId"`
		} `json:"eventThread"`
		Duration       isoDuration `json:"duration"`
		Weight         flexInt     `json:"weight"`
		AllocationSize flexInt     `json:"allocationSize"`
		TLABSize       flexInt     `json:"tlabSize"`
	} `json:"values"`
}

// flexInt reads a whole number written as a JSON number or a quoted one.
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		*f = 0
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number: %s", trim(string(b)))
	}
	*f = flexInt(v)
	return nil
}

// ParseJSON folds the output of `jfr print --json`. It streams the events
// one at a time: the JSON repeats every frame's class in full and runs to
// hundreds of megabytes for a minute of a busy region server.
func ParseJSON(r io.Reader) (*Profile, error) {
	dec := json.NewDecoder(r)
	for _, want := range []any{json.Delim('{'), "recording", json.Delim('{'), "events", json.Delim('[')} {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not jfr print --json output: %w", err)
		}
		if tok != want {
			return nil, fmt.Errorf("not jfr print --json output: found %v where %v belongs", tok, want)
		}
	}
	p := &Profile{CPU: Folded{}, NativeWait: Folded{}, Alloc: Folded{}, AllocSamples: Folded{}, Wait: Folded{}, WaitCount: Folded{}}
	tlab, tlabN := Folded{}, Folded{} // kept apart: used only when the recording has no sampled allocation event
	sampled := map[[2]flexInt]bool{}  // threads whose first allocation sample has been seen
	var frames []string
	for n := 1; dec.More(); n++ {
		var ev jsonEvent
		if err := dec.Decode(&ev); err != nil {
			return nil, fmt.Errorf("event %d: %w", n, err)
		}
		var into, count Folded
		var w int64
		switch ev.Type {
		case EventExecutionSample:
			into, w = p.CPU, 1
		case EventAllocSample:
			into, count, w = p.Alloc, p.AllocSamples, int64(ev.Values.Weight)
			if t := ev.Values.EventThread; t != nil {
				id := [2]flexInt{t.JavaThreadID, t.OSThreadID}
				if !sampled[id] {
					sampled[id] = true
					p.AllocSkipped += w
					continue
				}
			}
		case EventAllocNewTLAB:
			into, count, w = tlab, tlabN, int64(ev.Values.TLABSize)
		case EventAllocOutside:
			into, count, w = tlab, tlabN, int64(ev.Values.AllocationSize)
		case EventNativeSample:
			foldNative(p, &ev, &frames)
			continue
		default:
			if slices.Contains(WaitEvents, ev.Type) {
				foldWait(p, &ev, &frames)
			}
			continue
		}
		st := ev.Values.StackTrace
		if st == nil || len(st.Frames) == 0 || w <= 0 {
			continue
		}
		frames = frames[:0]
		if st.Truncated {
			frames = append(frames, TruncatedFrame)
			p.Truncated++
		}
		for i := len(st.Frames) - 1; i >= 0; i-- { // JFR lists the leaf first; folded stacks start at the root
			m := st.Frames[i].Method
			frames = append(frames, FrameName(m.Type.Name, m.Name))
		}
		stack := strings.Join(frames, ";")
		into[stack] += w
		if count != nil {
			count[stack]++
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, errors.New("not jfr print --json output: the events array does not end")
	}
	switch {
	case len(p.Alloc) > 0:
		p.AllocEvent = EventAllocSample
	case len(tlab) > 0:
		p.Alloc, p.AllocSamples, p.AllocEvent = tlab, tlabN, EventAllocNewTLAB+"+"+EventAllocOutside
	}
	return p, nil
}

var (
	// Generated classes carry a number or address that differs from one JVM
	// to the next; without them the same lambda matches across the two
	// sides. JFR names a hidden or anonymous class by the class's own name,
	// whose address follows "/", "." or "+" depending on the JDK, and then,
	// from JDK 11 on, "/" and the class's decimal identity hash: JDK 17 wrote
	// "a.B$$Lambda$62+0x00007f5ba802b018/1536882624" (testdata/burn17.json).
	// Read with "/" as ".", the hash was taken for the class and the frame
	// printed as "1536882624.run". hiddenSuffix takes every such tail off
	// the dotted name (a class name is never all digits, nor "0x" and hex).
	hiddenSuffix = regexp.MustCompile(`(?:[+.]0x[0-9a-fA-F]+|\.[0-9]+)+$`)
	lambdaSuffix = regexp.MustCompile(`\$\$Lambda(?:\$[0-9]+)+`)
	generatedNum = regexp.MustCompile(`(GeneratedMethodAccessor|GeneratedConstructorAccessor|GeneratedSerializationConstructorAccessor|\$Proxy)[0-9]+`)
	frameSafe    = strings.NewReplacer(";", ":", " ", "_") // ";" and " " would break the folded format
)

// FrameName names a frame "package.Class.method" from JFR's internal class
// name ("java/util/ArrayList"), with the run-specific numbers of generated
// classes removed (CanonicalFrame).
func FrameName(class, method string) string {
	return frameSafe.Replace(canonicalClass(strings.ReplaceAll(class, "/", ".")) + "." + canonicalMethod(method))
}

// CanonicalFrame takes the run-specific numbers out of a
// "package.Class.method" frame, as FrameName does: ReadFolded applies it so
// stacks stored before a form was known match those folded since.
func CanonicalFrame(frame string) string {
	i := strings.LastIndexByte(frame, '.')
	if i < 0 {
		return frame
	}
	return canonicalClass(frame[:i]) + "." + canonicalMethod(frame[i+1:])
}

// canonicalClass removes a dotted class name's hidden-class address and
// hash, a lambda class's sequence number and a generated accessor's number.
// The cheap tests first: it runs for every frame of every event.
func canonicalClass(c string) string {
	if n := len(c); n > 0 && (c[n-1] >= '0' && c[n-1] <= '9' || strings.Contains(c, "Lambda") || strings.Contains(c, "0x")) {
		c = hiddenSuffix.ReplaceAllString(c, "")
		c = lambdaSuffix.ReplaceAllString(c, "$$$$Lambda")
	}
	if strings.Contains(c, "Generated") || strings.Contains(c, "$Proxy") {
		c = generatedNum.ReplaceAllString(c, "$1")
	}
	if c == "" {
		c = "[unknown]"
	}
	return c
}

// lambdaBodyPrefix starts the name javac gives a lambda's body, a method of
// the enclosing class: "lambda$" + the enclosing method + "$" + a number.
const lambdaBodyPrefix = "lambda$"

// canonicalMethod drops a lambda body's number ("lambda$get$3" is
// "lambda$get"): javac numbers a class's lambdas in order, so one lambda
// added above another renumbers it between two releases, and the same code
// would show as one frame gone and another new. Two lambdas of one method
// are one frame.
func canonicalMethod(m string) string {
	if !strings.HasPrefix(m, lambdaBodyPrefix) {
		return m
	}
	for {
		i := strings.LastIndexByte(m, '$')
		if i < len(lambdaBodyPrefix) || i == len(m)-1 || strings.Trim(m[i+1:], "0123456789") != "" {
			return m
		}
		// A space left at the end would not survive a folded file's line:
		// trimmed, the name is stripped again, as it would be read back.
		m = strings.TrimRightFunc(m[:i], unicode.IsSpace)
	}
}

// foldWait adds one wait event to p.Wait when a request thread waited
// (RequestFrame on its stack): its microseconds on its stack cut to the
// last frame outside the JDK, its kind as the leaf ("[park]").
func foldWait(p *Profile, ev *jsonEvent, frames *[]string) {
	st := ev.Values.StackTrace
	us := time.Duration(ev.Values.Duration).Microseconds()
	if st == nil || len(st.Frames) == 0 || us <= 0 {
		return
	}
	*frames = append((*frames)[:0], waitKindFrame(ev.Type))
	if st.Truncated {
		*frames = append(*frames, TruncatedFrame)
		p.Truncated++
	}
	request := false
	leaf := 0 // JFR lists the leaf first: skip the JDK's frames there
	for leaf < len(st.Frames)-1 && jdkClass(st.Frames[leaf].Method.Type.Name) {
		leaf++
	}
	for i := len(st.Frames) - 1; i >= leaf; i-- {
		m := st.Frames[i].Method
		f := FrameName(m.Type.Name, m.Name)
		request = request || f == RequestFrame
		*frames = append(*frames, f)
	}
	if !request {
		return
	}
	stack := strings.Join(*frames, ";")
	p.Wait[stack] += us
	p.WaitCount[stack]++
}

// foldNative adds one native method sample of a request thread
// (RequestFrame on its stack) to p.CPU, rooted at NativeFrame, when its
// leaf, the native method, works rather than waits; to p.NativeWait when
// the leaf blocks (blockingNative). A native sample weighs one, as a Java
// sample does, though JFR takes at most one thread in native a period
// (five in Java): docs/profiles.md says what that undercounts.
func foldNative(p *Profile, ev *jsonEvent, frames *[]string) {
	st := ev.Values.StackTrace
	if st == nil || len(st.Frames) == 0 {
		return
	}
	*frames = append((*frames)[:0], NativeFrame)
	if st.Truncated {
		*frames = append(*frames, TruncatedFrame)
	}
	request := false
	for i := len(st.Frames) - 1; i >= 0; i-- {
		m := st.Frames[i].Method
		f := FrameName(m.Type.Name, m.Name)
		request = request || f == RequestFrame
		*frames = append(*frames, f)
	}
	if !request {
		return
	}
	stack := strings.Join(*frames, ";")
	if blockingNative((*frames)[len(*frames)-1]) {
		p.NativeWait[stack]++
		return
	}
	if st.Truncated {
		p.Truncated++
	}
	p.CPU[stack]++
}

// blockingNatives are the JDK's, Netty's and Hadoop's native methods a
// thread blocks in, "package.Class" -> methods: a sample there is a wait,
// which the wait profile has from its own events (jdk.SocketRead,
// jdk.FileRead, jdk.ThreadPark...), or, for a selector, is no request's
// work. Any other native leaf is taken for CPU: zlib, CRC, a copy, and a
// write, which copies into the kernel (a write to a full blocking socket
// waits, and is then in both profiles). Reads are waits even where they
// copy (a file read from the page cache): the wait profile holds the
// read's whole time. JDK 11 to 25 names; JDK 8's where they differ.
var blockingNatives = map[string][]string{
	// Threads: parks, monitors and sleeps (a thread in them is usually
	// "blocked", not "in native", and not sampled: listed in case).
	"java.lang.Object":            {"wait", "wait0"},
	"java.lang.Thread":            {"sleep", "sleep0"},
	"jdk.internal.misc.Unsafe":    {"park"},
	"sun.misc.Unsafe":             {"park"},
	"java.lang.ref.Reference":     {"waitForReferencePendingList"},
	"java.lang.ProcessHandleImpl": {"waitForProcessExit0"},
	"java.lang.ProcessImpl":       {"waitForProcessExit", "waitForProcessExit0"},
	// Selectors and polls: a thread waiting for a socket to be ready.
	"sun.nio.ch.EPoll":                   {"wait"},
	"sun.nio.ch.EPollArrayWrapper":       {"epollWait"}, // JDK 8
	"sun.nio.ch.KQueue":                  {"poll"},
	"sun.nio.ch.KQueueArrayWrapper":      {"kevent0"},
	"sun.nio.ch.WEPoll":                  {"wait"},
	"sun.nio.ch.PollSelectorImpl":        {"poll"},
	"sun.nio.ch.PollArrayWrapper":        {"poll0"},
	"sun.nio.ch.Net":                     {"poll", "pollConnect", "accept", "connect0"},
	"sun.nio.ch.ServerSocketChannelImpl": {"accept0"},
	"sun.nio.ch.SocketChannelImpl":       {"checkConnect"},
	"sun.nio.fs.LinuxWatchService":       {"poll"},
	"io.netty.channel.epoll.Native":      {"epollWait", "epollWait0"},
	"io.netty.channel.kqueue.Native":     {"keventWait"},
	// Socket reads and accepts on a blocking socket (java.net's own before
	// JDK 13, a blocking NIO channel's since).
	"java.net.SocketInputStream":                         {"socketRead0"},
	"java.net.PlainSocketImpl":                           {"socketAccept", "socketConnect"},
	"java.net.DualStackPlainSocketImpl":                  {"accept0", "connect0"},
	"java.net.PlainDatagramSocketImpl":                   {"receive0", "peekData"},
	"sun.nio.ch.SocketDispatcher":                        {"read0", "readv0"},
	"sun.nio.ch.DatagramDispatcher":                      {"read0", "readv0"},
	"sun.nio.ch.DatagramChannelImpl":                     {"receive0"},
	"sun.nio.ch.UnixAsynchronousServerSocketChannelImpl": {"accept0"},
	// File and pipe reads, and fsync (JDK 21 moved Unix's read0 and force0
	// to UnixFileDispatcherImpl).
	"sun.nio.ch.FileDispatcherImpl":     {"read0", "readv0", "pread0", "force0"},
	"sun.nio.ch.UnixFileDispatcherImpl": {"read0", "readv0", "pread0", "force0"},
	"java.io.FileInputStream":           {"read0", "readBytes"},
	"java.io.RandomAccessFile":          {"read0", "readBytes"},
	"java.io.FileDescriptor":            {"sync", "sync0"},
	// Hadoop's domain sockets (HDFS short-circuit reads pass descriptors on them).
	"org.apache.hadoop.net.unix.DomainSocket":        {"accept0", "connect0", "readArray0", "readByteBufferDirect0", "receiveFileDescriptors0"},
	"org.apache.hadoop.net.unix.DomainSocketWatcher": {"doPoll0"},
}

// blockingNative reports whether a native method frame ("package.Class.method",
// as FrameName names it) is one a thread blocks in (blockingNatives). A
// shaded Netty (HBase's "org.apache.hbase.thirdparty.io.netty...") is Netty.
func blockingNative(frame string) bool {
	i := strings.LastIndexByte(frame, '.')
	if i <= 0 {
		return false
	}
	class, method := frame[:i], frame[i+1:]
	if j := strings.Index(class, ".io.netty."); j >= 0 {
		class = class[j+1:]
	}
	return slices.Contains(blockingNatives[class], method)
}

// waitKindFrame names a wait event's kind as the root of its stack
// ("[park]", "[javamonitorenter]"): the flame graph groups by kind, and the
// leaf, whose self time the differential ranks, stays the frame that waited.
func waitKindFrame(typ string) string {
	return "[" + strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(typ, "jdk."), "Thread")) + "]"
}

// WaitKindFirst moves a wait stack's kind from its leaf (where profiles
// stored on 2026-12-06 put it) to its root, so the frame that waited is
// the leaf again; stacks already rooted at their kind are kept; nil stays nil.
func WaitKindFirst(f Folded) Folded {
	if f == nil {
		return nil
	}
	out := make(Folded, len(f))
	for s, w := range f {
		if i := strings.LastIndexByte(s, ';'); i >= 0 && strings.HasPrefix(s[i+1:], "[") && strings.HasSuffix(s, "]") {
			s = s[i+1:] + ";" + s[:i]
		}
		out[s] += w
	}
	return out
}

// jdkClass reports whether a JFR class name ("java/util/concurrent/...")
// is the JDK's own: where a wait is carried out, not who waited.
func jdkClass(name string) bool {
	for _, pre := range []string{"java/", "jdk/", "sun/", "javax/"} {
		if strings.HasPrefix(name, pre) {
			return true
		}
	}
	return false
}

// isoDuration reads JFR's ISO 8601 duration ("PT0.001480889S", "PT1M2.5S").
type isoDuration time.Duration

func (d *isoDuration) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		*d = 0
		return nil
	}
	v, ok := parseISODuration(s)
	if !ok {
		return fmt.Errorf("not a duration: %s", trim(string(b)))
	}
	*d = isoDuration(v)
	return nil
}

// parseISODuration parses the time part of an ISO 8601 duration as JFR
// prints it: "PT" then hours, minutes and (fractional) seconds, each optional.
func parseISODuration(s string) (time.Duration, bool) {
	rest, ok := strings.CutPrefix(s, "PT")
	if !ok || rest == "" {
		return 0, false
	}
	var total time.Duration
	for _, u := range []struct {
		suffix byte
		unit   time.Duration
	}{{'H', time.Hour}, {'M', time.Minute}, {'S', time.Second}} {
		i := strings.IndexByte(rest, u.suffix)
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil || v < 0 || v > 1e6 {
			return 0, false
		}
		total += time.Duration(v * float64(u.unit))
		rest = rest[i+1:]
	}
	return total, rest == ""
}
