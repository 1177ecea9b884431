package profile

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlockingNative: a native leaf a thread blocks in is a wait, any
// other native leaf is CPU; shaded Netty is Netty.
func TestBlockingNative(t *testing.T) {
	for _, tc := range []struct {
		frame string
		wait  bool
	}{
		// Waits: selectors, polls, blocking reads and accepts, parks, fsync.
		{"sun.nio.ch.EPoll.wait", true},
		{"sun.nio.ch.EPollArrayWrapper.epollWait", true},
		{"sun.nio.ch.Net.poll", true},
		{"sun.nio.ch.Net.accept", true},
		{"sun.nio.ch.SocketDispatcher.read0", true},
		{"sun.nio.ch.FileDispatcherImpl.read0", true}, // a pipe's read too
		{"sun.nio.ch.UnixFileDispatcherImpl.pread0", true},
		{"sun.nio.ch.FileDispatcherImpl.force0", true},
		{"java.net.SocketInputStream.socketRead0", true},
		{"java.io.FileInputStream.readBytes", true},
		{"java.lang.Object.wait", true},
		{"java.lang.Object.wait0", true},
		{"java.lang.Thread.sleep", true},
		{"jdk.internal.misc.Unsafe.park", true},
		{"io.netty.channel.epoll.Native.epollWait", true},
		{"org.apache.hbase.thirdparty.io.netty.channel.epoll.Native.epollWait0", true},
		{"org.apache.hadoop.net.unix.DomainSocketWatcher.doPoll0", true},
		// CPU: compression, checksums, copies, writes.
		{"java.util.zip.Deflater.deflateBytesBytes", false},
		{"java.util.zip.Inflater.inflateBytesBytes", false},
		{"org.apache.hadoop.io.compress.zlib.ZlibCompressor.deflateBytesDirect", false},
		{"org.apache.hadoop.util.NativeCrc32.nativeComputeChunkedSumsByteArray", false},
		{"sun.nio.ch.SocketDispatcher.write0", false},
		{"sun.nio.ch.FileDispatcherImpl.write0", false},
		{"jdk.internal.misc.Unsafe.copyMemory0", false},
		{"org.apache.hbase.thirdparty.io.netty.channel.unix.FileDescriptor.writeAddress", false},
		{"org.apache.hbase.thirdparty.io.netty.channel.epoll.Native.epollCtlMod0", false},
		// Not a wait because of a name alone: the class must match too.
		{"com.example.Poller.wait", false},
		{"sun.nio.ch.EPoll.create", false},
		{"wait", false},
		{"", false},
	} {
		if got := blockingNative(tc.frame); got != tc.wait {
			t.Errorf("blockingNative(%q) = %v, want %v", tc.frame, got, tc.wait)
		}
	}
}

// TestNativeSamplesFoldRequestThreadsCPUOnly: a request thread's native
// sample in zlib is CPU, rooted at [native] over its whole stack; one in
// a socket read is a wait (NativeWait, not CPU); one outside a request is
// neither.
func TestNativeSamplesFoldRequestThreadsCPUOnly(t *testing.T) {
	call := []string{"org/regress/Codec.compress", "org/apache/hadoop/hbase/ipc/CallRunner.run", "org/apache/hadoop/hbase/ipc/RpcHandler.run"}
	deflate := append([]string{"java/util/zip/Deflater.deflateBytesBytes", "java/util/zip/Deflater.deflate"}, call...)
	read := append([]string{"sun/nio/ch/SocketDispatcher.read0", "sun/nio/ch/IOUtil.read"}, call...)
	background := []string{"java/util/zip/Deflater.deflateBytesBytes", "org/regress/Flusher.run"}
	events := []string{
		waitEvent(EventNativeSample, "", deflate...),
		waitEvent(EventNativeSample, "", deflate...),
		waitEvent(EventNativeSample, "", read...),
		waitEvent(EventNativeSample, "", background...),
		waitEvent(EventExecutionSample, "", call...),
	}
	p, err := ParseJSON(strings.NewReader(`{"recording":{"events":[` + strings.Join(events, ",") + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	stack := "org.apache.hadoop.hbase.ipc.RpcHandler.run;org.apache.hadoop.hbase.ipc.CallRunner.run;org.regress.Codec.compress"
	native := NativeFrame + ";" + stack + ";java.util.zip.Deflater.deflate;java.util.zip.Deflater.deflateBytesBytes"
	for _, tc := range []struct {
		name string
		f    Folded
		want Folded
	}{
		{"CPU", p.CPU, Folded{native: 2, stack: 1}},
		{"NativeWait", p.NativeWait, Folded{NativeFrame + ";" + stack + ";sun.nio.ch.IOUtil.read;sun.nio.ch.SocketDispatcher.read0": 1}},
		{"Wait", p.Wait, Folded{}},
	} {
		if len(tc.f) != len(tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.f, tc.want)
		}
		for s, w := range tc.want {
			if tc.f[s] != w {
				t.Errorf("%s[%s] = %d, want %d; all: %v", tc.name, s, tc.f[s], w, tc.f)
			}
		}
	}
}

// native17.jfr is a real JDK 17 recording, made with the built-in
// settings, of testdata/native/NativeLoad.java (testdata/native/README).
// Its request thread in zlib shows as CPU under [native]; its request
// threads blocked in a socket, a channel, a pipe and a selector do not,
// nor does its thread in zlib outside a request.
func TestParseRealNativeSamples(t *testing.T) {
	jdk := testJDKs(t)[0]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := Parse(ctx, jdk.Jfr, filepath.Join("testdata", "native", "native17.jfr"))
	if err != nil {
		t.Fatal(err)
	}
	var zlib int64
	for s, w := range p.CPU {
		if !strings.HasPrefix(s, NativeFrame+";") {
			continue
		}
		leaf := s[strings.LastIndexByte(s, ';')+1:]
		if !strings.Contains(s, RequestFrame) || blockingNative(leaf) {
			t.Errorf("native CPU stack %q (%d): want request threads' working natives only", s, w)
		}
		if leaf == "java.util.zip.Deflater.deflateBytesBytes" && strings.Contains(s, "NativeLoad.deflate") {
			zlib += w
		}
	}
	// The sampler takes one thread in native a period, in turn: six
	// threads in native shared the recording's 127 samples, 21 each.
	if zlib < 5 {
		t.Errorf("native CPU samples in Deflater.deflateBytesBytes under a request: %d, want at least 5; CPU: %v", zlib, p.CPU)
	}
	waits := map[string]int64{}
	for s, w := range p.NativeWait {
		waits[s[strings.LastIndexByte(s, ';')+1:]] += w
	}
	// JDK 17's java.net.Socket without a timeout reads as a blocking
	// channel does, in SocketDispatcher.read0.
	for _, leaf := range []string{"sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.FileDispatcherImpl.read0", "sun.nio.ch.EPoll.wait"} {
		if waits[leaf] == 0 {
			t.Errorf("no request thread's native sample blocked in %s left out as a wait; NativeWait by leaf: %v", leaf, waits)
		}
	}
}

// TestMakeNativeRecording rewrites testdata/native/native17.jfr: run with
// REGRESS_MAKE_NATIVE_JFR=1 (it runs java for about 4 s, at nice 19).
func TestMakeNativeRecording(t *testing.T) {
	if os.Getenv("REGRESS_MAKE_NATIVE_JFR") == "" {
		t.Skip("set REGRESS_MAKE_NATIVE_JFR=1 to record testdata/native/native17.jfr again")
	}
	jdk := testJDKs(t)[0]
	dir := t.TempDir()
	jfc := filepath.Join(dir, "regress.jfc")
	if err := os.WriteFile(jfc, []byte(SettingsJFC(jdk.Home)), 0o644); err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Abs(filepath.Join("testdata", "native", "NativeLoad.java"))
	if out, err := exec.Command(filepath.Join(jdk.Home, "bin", "javac"), "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v: %s", err, out)
	}
	dest, _ := filepath.Abs(filepath.Join("testdata", "native", "native17.jfr"))
	cmd := exec.Command("nice", "-n", "19", filepath.Join(jdk.Home, "bin", "java"), "-Xmx128m", "-XX:+UseSerialGC",
		"-XX:StartFlightRecording=settings="+jfc+",duration=3s,filename="+dest,
		"-cp", dir, "org.apache.hadoop.hbase.ipc.NativeLoad", "3500")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("java: %v: %s", err, out)
	}
	st, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s, %d bytes", dest, st.Size())
}
