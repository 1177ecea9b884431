package hbase

import (
	"context"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// benchGetRequest is a typical YCSB read: one row, one family.
func benchGetRequest() *pb.GetRequest {
	return &pb.GetRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("usertable,user5,1700000000000.0123456789abcdef0123456789abcdef.")},
		Get:    &pb.Get{Row: []byte("user6284781860667377211"), Column: []*pb.Column{{Family: []byte("family")}}},
	}
}

// benchGetResponse is a YCSB row: 10 fields of 100 bytes.
func benchGetResponse() []byte {
	r := &pb.Result{}
	for i := 0; i < 10; i++ {
		r.Cell = append(r.Cell, &pb.Cell{Row: []byte("user6284781860667377211"), Family: []byte("family"),
			Qualifier: []byte{'f', 'i', 'e', 'l', 'd', byte('0' + i)}, Timestamp: proto.Uint64(1700000000000), CellType: proto.Int32(4), Value: make([]byte, 100)})
	}
	h, _ := proto.Marshal(&pb.ResponseHeader{CallId: proto.Uint32(12345)})
	body, _ := proto.Marshal(&pb.GetResponse{Result: r})
	var b []byte
	b = appendVarintBytes(b, h)
	return appendVarintBytes(b, body)
}

func appendVarintBytes(b, v []byte) []byte {
	b = append(b, byte(len(v)))
	if len(v) >= 0x80 {
		b = append(b[:len(b)-1], byte(len(v)|0x80), byte(len(v)>>7))
	}
	return append(b, v...)
}

func BenchmarkEncodeGetRequest(b *testing.B) {
	req := benchGetRequest()
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = appendRequest(buf[:0], 12345, "Get", 60000, req)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkEncodePutRequest(b *testing.B) {
	m := mutatePool.Get().(*mutateReq)
	cols := make([]Column, 10)
	for i := range cols {
		cols[i] = Column{Qualifier: []byte{'f', 'i', 'e', 'l', 'd', byte('0' + i)}, Value: make([]byte, 100)}
	}
	m.mut.Row = []byte("user6284781860667377211")
	m.typ = pb.MutationProto_PUT
	m.spec.Value = []byte("usertable,user5,1700000000000.0123456789abcdef0123456789abcdef.")
	buf := make([]byte, 0, 2048)
	b.ReportAllocs()
	for b.Loop() {
		m.setColumns([]byte("family"), cols)
		var err error
		buf, err = appendRequest(buf[:0], 12345, "Mutate", 60000, &m.req)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeGetResponse(b *testing.B) {
	frame := benchGetResponse()
	var g getResult
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := parseResponse(frame)
		if err != nil {
			b.Fatal(err)
		}
		if err := g.decodeRaw(f.body); err != nil || len(g.res.Cells) != 10 {
			b.Fatal("lost cells", err)
		}
	}
}

// BenchmarkDecodeGetResponseProto is the generated-code decoder, for comparison.
func BenchmarkDecodeGetResponseProto(b *testing.B) {
	frame := benchGetResponse()
	var resp pb.GetResponse
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := parseResponse(frame)
		if err != nil {
			b.Fatal(err)
		}
		resp.Reset()
		if err := proto.Unmarshal(f.body, &resp); err != nil {
			b.Fatal(err)
		}
		if r := decodeResult(resp.Result); len(r.Cells) != 10 {
			b.Fatal("lost cells")
		}
	}
}

// benchTable creates a table with one row per key "user%d" for the server benchmarks.
func benchTable(b *testing.B, rows int) (*Client, string) {
	c := testClient(b)
	table := newTable(b, c, nil)
	putRows(b, c, table, rows)
	return c, table
}

func BenchmarkGet(b *testing.B) {
	c, table := benchTable(b, 1000)
	ctx := context.Background()
	fam := []byte("f")
	keys := make([][]byte, 1000)
	for i := range keys {
		keys[i] = rowKey(i)
	}
	i := 0
	b.ReportAllocs()
	cpu := processCPU(b)
	for b.Loop() {
		r, err := c.Get(ctx, table, keys[i%len(keys)], fam, nil)
		if err != nil || len(r.Cells) != 2 {
			b.Fatalf("get: %v %+v", err, r)
		}
		i++
	}
	reportCPU(b, cpu, i)
}

func BenchmarkGetParallel(b *testing.B) {
	c, table := benchTable(b, 1000)
	ctx := context.Background()
	fam := []byte("f")
	b.ReportAllocs()
	b.SetParallelism(16) // 16 x GOMAXPROCS goroutines share one connection
	cpu := processCPU(b)
	defer func() { reportCPU(b, cpu, b.N) }()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r, err := c.Get(ctx, table, rowKey(i%1000), fam, nil)
			if err != nil || len(r.Cells) != 2 {
				b.Errorf("get: %v %+v", err, r)
				return
			}
			i++
		}
	})
}

func BenchmarkPut(b *testing.B) {
	c := testClient(b)
	table := newTable(b, c, nil)
	ctx := context.Background()
	fam := []byte("f")
	cols := make([]Column, 10)
	for i := range cols {
		cols[i] = Column{Qualifier: []byte{'f', 'i', 'e', 'l', 'd', byte('0' + i)}, Value: make([]byte, 100)}
	}
	keys := make([][]byte, 1000)
	for i := range keys {
		keys[i] = rowKey(i)
	}
	i := 0
	b.ReportAllocs()
	cpu := processCPU(b)
	for b.Loop() {
		if err := c.Put(ctx, table, keys[i%len(keys)], fam, cols, UseDefault); err != nil {
			b.Fatal(err)
		}
		i++
	}
	reportCPU(b, cpu, i)
}

// processCPU is this process's user+system CPU time: the client's cost, since
// HBase runs in another process.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds client CPU per operation (cpu-ns/op) to a benchmark.
func reportCPU(b *testing.B, start time.Duration, ops int) {
	if ops > 0 {
		b.ReportMetric(float64(processCPU(b)-start)/float64(ops), "cpu-ns/op")
	}
}

// benchScanResponse is a scan batch of 100 YCSB rows of 10 fields of 100 bytes.
func benchScanResponse() []byte {
	resp := &pb.ScanResponse{ScannerId: proto.Uint64(42), MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(true)}
	for r := 0; r < 100; r++ {
		res := &pb.Result{}
		for i := 0; i < 10; i++ {
			res.Cell = append(res.Cell, &pb.Cell{Row: []byte("user6284781860667377211"), Family: []byte("family"),
				Qualifier: []byte{'f', 'i', 'e', 'l', 'd', byte('0' + i)}, Timestamp: proto.Uint64(1700000000000), CellType: proto.Int32(4), Value: make([]byte, 100)})
		}
		resp.Results = append(resp.Results, res)
	}
	b, _ := proto.Marshal(resp)
	return b
}

func BenchmarkDecodeScanResponse(b *testing.B) {
	body := benchScanResponse()
	var s scanResult
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.decodeRaw(body); err != nil || len(s.results) != 100 {
			b.Fatal("lost rows", err)
		}
	}
}

// BenchmarkDecodeScanResponseProto is the generated-code decoder, for comparison.
func BenchmarkDecodeScanResponseProto(b *testing.B) {
	body := benchScanResponse()
	var resp pb.ScanResponse
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		resp.Reset()
		if err := proto.Unmarshal(body, &resp); err != nil {
			b.Fatal(err)
		}
		for _, r := range resp.Results {
			_ = decodeResult(r)
		}
	}
}

// BenchmarkScan100 scans 100 rows per op (YCSB workload E's shape).
func BenchmarkScan100(b *testing.B) {
	c, table := benchTable(b, 5000)
	ctx := context.Background()
	i := 0
	b.ReportAllocs()
	cpu := processCPU(b)
	for b.Loop() {
		rows, err := c.Scan(ctx, table, ScanOptions{StartRow: rowKey((i * 37) % 4900), Limit: 100, Caching: 100})
		if err != nil || len(rows) != 100 {
			b.Fatalf("scan: %d rows, %v", len(rows), err)
		}
		i++
	}
	reportCPU(b, cpu, i)
}
