package hbase

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/regress-hbase/regress/harness/loadgen"
	"github.com/regress-hbase/regress/harness/workload"
)

// The loopback responder calibrates the client alone: a process that speaks
// just enough of HBase's RPC to answer every call at once with a fixed Get
// response (one row of ten 100-byte fields). Run in a child process, so the
// client's CPU figures are its own. It says nothing about HBase: it is an
// instrument for the client, never a stand-in in tests of behaviour.
const responderEnv = "REGRESS_LOOPBACK_RESPONDER"

// runResponder serves until stdin closes; it prints its address first.
func runResponder() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
	body := benchGetResponse() // header (call id 12345) + body, varint-delimited
	hlen, n := protowire.ConsumeVarint(body)
	resp := body[n+int(hlen):]
	for {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		go serveLoopback(nc, resp)
	}
}

func serveLoopback(nc net.Conn, resp []byte) {
	defer nc.Close()
	br := bufio.NewReaderSize(nc, 64<<10)
	bw := bufio.NewWriterSize(nc, 64<<10)
	pre := make([]byte, 6)
	if _, err := io.ReadFull(br, pre); err != nil {
		return
	}
	var lenBuf [4]byte
	var frame, out []byte
	first := true
	for {
		if _, err := io.ReadFull(br, lenBuf[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(lenBuf[:])
		if cap(frame) < int(n) {
			frame = make([]byte, n)
		}
		frame = frame[:n]
		if _, err := io.ReadFull(br, frame); err != nil {
			return
		}
		if first { // the connection header has no reply
			first = false
			continue
		}
		// The request header's first field is the call id.
		hl, m := protowire.ConsumeVarint(frame)
		hdr := frame[m : m+int(hl)]
		var callID uint64
		for len(hdr) > 0 {
			num, typ, k := protowire.ConsumeTag(hdr)
			hdr = hdr[k:]
			if num == 1 && typ == protowire.VarintType {
				callID, _ = protowire.ConsumeVarint(hdr)
				break
			}
			k = protowire.ConsumeFieldValue(num, typ, hdr)
			hdr = hdr[k:]
		}
		var rh []byte
		rh = protowire.AppendTag(rh, 1, protowire.VarintType)
		rh = protowire.AppendVarint(rh, callID)
		out = out[:0]
		out = append(out, 0, 0, 0, 0)
		out = protowire.AppendVarint(out, uint64(len(rh)))
		out = append(out, rh...)
		out = append(out, resp...)
		binary.BigEndian.PutUint32(out, uint32(len(out)-4))
		_, _ = bw.Write(out)
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return
			}
		}
	}
}

// startResponder runs the responder in a child process (this test binary).
func startResponder(b *testing.B) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), responderEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return strings.TrimSpace(line)
}

// BenchmarkLoopback runs paced Gets (32 workers) through the whole client
// path (region cache, pipelined connection, response decode) and loadgen
// against the loopback responder: what the client and the loopback network
// add by themselves, and the client's CPU per operation.
//
//	go test -run '^$' -bench Loopback -benchtime 1x ./harness/hbase
func BenchmarkLoopback(b *testing.B) {
	addr := startResponder(b)
	c := &Client{cfg: config{rpcTimeout: 10 * time.Second, maxRetries: 3, pause: 10 * time.Millisecond},
		user: "bench", cache: newRegionCache(), conns: map[connKey]*connSlot{}, lookups: map[string]chan struct{}{}}
	c.cache.add(&RegionInfo{Table: "usertable", Name: []byte("usertable,,1.0123456789abcdef."), Server: addr})
	defer c.Close()
	for _, rate := range []float64{1000, 5000} {
		b.Run(fmt.Sprintf("rate=%.0f", rate), func(b *testing.B) {
			for range b.N {
				var mu sync.Mutex
				var failed error
				cpu0 := processCPU(b)
				res, err := loadgen.Run(context.Background(), loadgen.Config{Schedule: loadgen.Schedule{TargetRate: rate, Workers: 32, Duration: 10 * time.Second},
					NewWorker: func(int) (loadgen.Worker, error) {
						row := []byte("user6284781860667377211")
						return loadgen.WorkerFunc(func(ctx context.Context, rec workload.Recorder) error {
							t0 := time.Now()
							_, err := c.Get(ctx, "usertable", row, []byte("family"), nil)
							st := workload.OK
							if err != nil {
								st = workload.Error
								mu.Lock()
								failed = err
								mu.Unlock()
							}
							rec.Record(workload.Read, t0, time.Now(), st)
							return nil
						}), nil
					}})
				cpu := processCPU(b) - cpu0
				if err != nil || failed != nil {
					b.Fatal(err, failed)
				}
				r := res.PerOp[workload.Read]
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(res.Ops+res.WarmupOps)/1e3, "cpu_us/op")
				b.ReportMetric(float64(r.Service.ValueAtQuantile(50)), "svc_p50_us")
				b.ReportMetric(float64(r.Service.ValueAtQuantile(99)), "svc_p99_us")
				b.ReportMetric(float64(r.Intended.ValueAtQuantile(99)), "int_p99_us")
				b.ReportMetric(res.Achieved(), "achieved_ops/s")
			}
		})
	}
}
