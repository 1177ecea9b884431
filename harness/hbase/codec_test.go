package hbase

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// splitRequest undoes appendRequest the way the server reads a call.
func splitRequest(t testing.TB, frame []byte) (*pb.RequestHeader, []byte) {
	t.Helper()
	n := binary.BigEndian.Uint32(frame)
	if int(n) != len(frame)-4 {
		t.Fatalf("frame length %d, want %d", n, len(frame)-4)
	}
	b := frame[4:]
	hl, k := protowire.ConsumeVarint(b)
	var h pb.RequestHeader
	if err := proto.Unmarshal(b[k:k+int(hl)], &h); err != nil {
		t.Fatal(err)
	}
	b = b[k+int(hl):]
	pl, k := protowire.ConsumeVarint(b)
	if k+int(pl) != len(b) {
		t.Fatalf("param length %d does not fill the frame (%d bytes left)", pl, len(b)-k)
	}
	return &h, b[k:]
}

func TestAppendRequestIsReadableByServer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		id      uint32
		timeout uint32
	}{{"small id no timeout", 1, 0}, {"large id with timeout", 0x7ffffff0, 60000}} {
		t.Run(tc.name, func(t *testing.T) {
			req := &pb.GetRequest{Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: []byte("t,,1.abc.")},
				Get: &pb.Get{Row: []byte("row1"), Column: []*pb.Column{{Family: []byte("f")}}}}
			frame, err := appendRequest([]byte("junk"), tc.id, "Get", tc.timeout, req)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(frame, []byte("junk")) {
				t.Fatal("appendRequest clobbered the buffer prefix")
			}
			h, param := splitRequest(t, frame[4:])
			if h.GetCallId() != tc.id || h.GetMethodName() != "Get" || !h.GetRequestParam() || h.GetTimeout() != tc.timeout {
				t.Fatalf("header = %v", h)
			}
			var got pb.GetRequest
			if err := proto.Unmarshal(param, &got); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(&got, req) {
				t.Fatalf("param = %v, want %v", &got, req)
			}
		})
	}
}

func TestConnectionHeader(t *testing.T) {
	b, err := appendConnectionHeader(nil, "alice", "ClientService")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b[:6], []byte{'H', 'B', 'a', 's', 0, 0x50}) {
		t.Fatalf("preamble = %q", b[:6])
	}
	n := binary.BigEndian.Uint32(b[6:])
	var h pb.ConnectionHeader
	if err := proto.Unmarshal(b[10:10+n], &h); err != nil || int(n) != len(b)-10 {
		t.Fatalf("header length %d of %d: %v", n, len(b)-10, err)
	}
	if h.GetServiceName() != "ClientService" || h.GetUserInfo().GetEffectiveUser() != "alice" || h.CellBlockCodecClass != nil {
		t.Fatalf("header = %v", &h)
	}
}

// responseBytes builds a response frame (without the 4-byte length) as the server does.
func responseBytes(t testing.TB, h *pb.ResponseHeader, body proto.Message) []byte {
	t.Helper()
	hb, _ := proto.Marshal(h)
	b := protowire.AppendBytes(nil, hb)
	if body != nil {
		bb, _ := proto.Marshal(body)
		b = protowire.AppendBytes(b, bb)
	}
	return b
}

func TestParseResponse(t *testing.T) {
	body := &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: []byte("r"), Family: []byte("f"), Qualifier: []byte("q"), Value: []byte("v"), Timestamp: proto.Uint64(7)}}}}
	t.Run("ok", func(t *testing.T) {
		f, err := parseResponse(responseBytes(t, &pb.ResponseHeader{CallId: proto.Uint32(42)}, body))
		if err != nil || f.callID != 42 || f.exception != nil {
			t.Fatalf("f=%+v err=%v", f, err)
		}
		var got pb.GetResponse
		if err := proto.Unmarshal(f.body, &got); err != nil || !proto.Equal(&got, body) {
			t.Fatalf("body = %v, %v", &got, err)
		}
		r := decodeResult(got.Result)
		if len(r.Cells) != 1 || string(r.Cells[0].Value) != "v" || r.Cells[0].Timestamp != 7 {
			t.Fatalf("decoded %+v", r)
		}
	})
	t.Run("exception", func(t *testing.T) {
		h := &pb.ResponseHeader{CallId: proto.Uint32(3), Exception: &pb.ExceptionResponse{
			ExceptionClassName: proto.String("org.apache.hadoop.hbase.NotServingRegionException"),
			StackTrace:         proto.String("org.apache.hadoop.hbase.NotServingRegionException: t,,1.abc. is not online on rs1\n\tat ..."),
		}}
		f, err := parseResponse(responseBytes(t, h, nil))
		if err != nil || f.callID != 3 || f.exception == nil || f.body != nil {
			t.Fatalf("f=%+v err=%v", f, err)
		}
		re := remoteFrom(f.exception, "rs1:16020")
		if re.Message != "t,,1.abc. is not online on rs1" || classify(re) != retryRelocate {
			t.Fatalf("remote error %+v", re)
		}
	})
	for _, bad := range [][]byte{{}, {0x05, 0x08}, {0x02, 0xff, 0xff}, {0x00}, {0x02, 0x08, 0x01, 0x09}} {
		if _, err := parseResponse(bad); err == nil {
			t.Errorf("parseResponse(%x) accepted a malformed frame", bad)
		}
	}
}

func FuzzParseResponse(f *testing.F) {
	f.Add(responseBytes(f, &pb.ResponseHeader{CallId: proto.Uint32(1)}, &pb.GetResponse{}))
	f.Add([]byte{0x02, 0x08, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseResponse(b) // must not panic
	})
}

func TestClassifyAndMap(t *testing.T) {
	for _, tc := range []struct {
		class      string
		doNotRetry bool
		want       retryKind
	}{
		{"org.apache.hadoop.hbase.NotServingRegionException", false, retryRelocate},
		{"org.apache.hadoop.hbase.exceptions.RegionMovedException", false, retryRelocate},
		{"org.apache.hadoop.hbase.exceptions.RegionOpeningException", false, retryBackoff},
		{"org.apache.hadoop.hbase.RegionTooBusyException", false, retryBackoff},
		{"org.apache.hadoop.hbase.CallQueueTooBigException", false, retryBackoff},
		{"org.apache.hadoop.hbase.ipc.ServerNotRunningYetException", false, retryReconnect},
		{"org.apache.hadoop.hbase.TableNotFoundException", true, retryNever},
		{"org.apache.hadoop.hbase.SomethingNewException", true, retryNever},
		{"org.apache.hadoop.hbase.SomethingNewException", false, retryBackoff},
		{"org.apache.hadoop.hbase.UnknownScannerException", true, retryRelocate},
	} {
		re := &RemoteError{Class: tc.class, DoNotRetry: tc.doNotRetry}
		if got := classify(re); got != tc.want {
			t.Errorf("classify(%s, doNotRetry=%v) = %v, want %v", tc.class, tc.doNotRetry, got, tc.want)
		}
	}
	if classify(&ConnError{Server: "x:1", Err: errors.New("reset")}) != retryReconnect {
		t.Error("connection errors must reconnect")
	}
	var nf *TableNotFoundError
	err := mapRemote(&RemoteError{Class: "org.apache.hadoop.hbase.TableNotFoundException", Message: "nope", Table: "t1"})
	if !errors.As(err, &nf) || nf.Table != "t1" {
		t.Fatalf("mapRemote gave %T %v", err, err)
	}
	var re *RemoteError
	if !errors.As(err, &re) || re.Class == "" {
		t.Fatal("typed error must unwrap to the RemoteError")
	}
	var te *TableExistsError
	if err := mapRemote(&RemoteError{Class: "org.apache.hadoop.hbase.TableExistsException", Message: "t2"}); !errors.As(err, &te) || te.Table != "t2" {
		t.Fatalf("mapRemote gave %v", err)
	}
}

// checkRawMatchesProto asserts the hand decoder agrees with the generated one.
func checkRawMatchesProto(t *testing.T, body []byte) {
	var g getResult
	rawErr := g.decodeRaw(body)
	var resp pb.GetResponse
	protoErr := proto.Unmarshal(body, &resp)
	if protoErr != nil || rawErr != nil {
		return // malformed input: only the absence of a panic matters
	}
	want := decodeResult(resp.Result)
	if len(want.Cells) != len(g.res.Cells) {
		t.Fatalf("raw decoder found %d cells, proto %d", len(g.res.Cells), len(want.Cells))
	}
	for i := range want.Cells {
		w, got := want.Cells[i], g.res.Cells[i]
		if !bytes.Equal(w.Row, got.Row) || !bytes.Equal(w.Family, got.Family) || !bytes.Equal(w.Qualifier, got.Qualifier) ||
			!bytes.Equal(w.Value, got.Value) || w.Timestamp != got.Timestamp {
			t.Fatalf("cell %d: raw %+v, proto %+v", i, got, w)
		}
	}
}

func TestRawGetDecoderMatchesProto(t *testing.T) {
	full := &pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{
		{Row: []byte("r"), Family: []byte("f"), Qualifier: []byte("a"), Value: []byte("1"), Timestamp: proto.Uint64(1 << 40), CellType: proto.Int32(4)},
		{Row: []byte("r"), Family: []byte("f"), Qualifier: []byte(""), Value: nil},
	}, Exists: proto.Bool(true)}}
	for name, m := range map[string]*pb.GetResponse{"cells": full, "empty result": {Result: &pb.Result{}}, "no result": {}} {
		t.Run(name, func(t *testing.T) {
			b, _ := proto.Marshal(m)
			checkRawMatchesProto(t, b)
		})
	}
	// A body aliasing a reused read buffer must not leak into the decoded cells.
	b, _ := proto.Marshal(full)
	var g getResult
	if err := g.decodeRaw(b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = 0
	}
	if string(g.res.Cells[0].Value) != "1" {
		t.Fatal("decoded cells alias the input buffer")
	}
}

func FuzzRawGetDecoder(f *testing.F) {
	b, _ := proto.Marshal(&pb.GetResponse{Result: &pb.Result{Cell: []*pb.Cell{{Row: []byte("r"), Value: []byte("v"), Timestamp: proto.Uint64(3)}}}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { checkRawMatchesProto(t, b) })
}

// checkRawScanMatchesProto asserts the hand ScanResponse decoder agrees with the generated one.
func checkRawScanMatchesProto(t *testing.T, body []byte) {
	var s scanResult
	rawErr := s.decodeRaw(body)
	var resp pb.ScanResponse
	if err := proto.Unmarshal(body, &resp); err != nil || rawErr != nil {
		return // malformed input: only the absence of a panic matters
	}
	if s.hasScannerID != (resp.ScannerId != nil) || s.scannerID != resp.GetScannerId() ||
		s.moreResults != (resp.MoreResults == nil || resp.GetMoreResults()) ||
		s.moreResultsInRegn != (resp.MoreResultsInRegion == nil || resp.GetMoreResultsInRegion()) ||
		s.saidInRegion != (resp.MoreResultsInRegion != nil) {
		t.Fatalf("raw flags %+v, proto %v", s, &resp)
	}
	if len(s.results) != len(resp.Results) {
		t.Fatalf("raw decoder found %d results, proto %d", len(s.results), len(resp.Results))
	}
	for i, pr := range resp.Results {
		want := decodeResult(pr)
		if len(want.Cells) != len(s.results[i].Cells) {
			t.Fatalf("result %d: %d cells, want %d", i, len(s.results[i].Cells), len(want.Cells))
		}
		for j, w := range want.Cells {
			got := s.results[i].Cells[j]
			if !bytes.Equal(w.Row, got.Row) || !bytes.Equal(w.Value, got.Value) || !bytes.Equal(w.Qualifier, got.Qualifier) || w.Timestamp != got.Timestamp {
				t.Fatalf("result %d cell %d: raw %+v, proto %+v", i, j, got, w)
			}
		}
	}
}

func TestRawScanDecoderMatchesProto(t *testing.T) {
	row := func(k string) *pb.Result {
		return &pb.Result{Cell: []*pb.Cell{{Row: []byte(k), Family: []byte("f"), Qualifier: []byte("q"), Value: []byte("v" + k), Timestamp: proto.Uint64(9)}}}
	}
	for name, m := range map[string]*pb.ScanResponse{
		"open with rows":  {ScannerId: proto.Uint64(77), MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(true), Results: []*pb.Result{row("a"), row("b")}, CellsPerResult: []uint32{1, 1}},
		"region done":     {ScannerId: proto.Uint64(1<<40 + 3), MoreResults: proto.Bool(true), MoreResultsInRegion: proto.Bool(false), Results: []*pb.Result{row("c")}},
		"scan done":       {MoreResults: proto.Bool(false)},
		"0.98 region end": {ScannerId: proto.Uint64(8), MoreResults: proto.Bool(true), Ttl: proto.Uint32(60000)},
		"flags unset":     {Results: []*pb.Result{{}}},
		"heartbeat extra": {HeartbeatMessage: proto.Bool(true), Ttl: proto.Uint32(60000), PartialFlagPerResult: []bool{false}},
	} {
		t.Run(name, func(t *testing.T) {
			b, _ := proto.Marshal(m)
			checkRawScanMatchesProto(t, b)
		})
	}
}

func FuzzRawScanDecoder(f *testing.F) {
	b, _ := proto.Marshal(&pb.ScanResponse{ScannerId: proto.Uint64(5), MoreResultsInRegion: proto.Bool(false), Results: []*pb.Result{{Cell: []*pb.Cell{{Row: []byte("r")}}}}})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { checkRawScanMatchesProto(t, b) })
}
