package hbase

import (
	"encoding/binary"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

func znode(id string, payload proto.Message) []byte {
	b := []byte{0xFF, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(id)))
	b = append(b, id...)
	b = append(b, "PBUF"...)
	pbb, _ := proto.Marshal(payload)
	return append(b, pbb...)
}

func TestParseZNodes(t *testing.T) {
	m := znode("master:16000", &pb.Master{Master: &pb.ServerName{HostName: proto.String("h1"), Port: proto.Uint32(16000), StartCode: proto.Uint64(5)}})
	if got, err := parseMasterZNode(m); err != nil || got != "h1:16000" {
		t.Fatalf("master = %q, %v", got, err)
	}
	meta := znode("rs", &pb.MetaRegionServer{Server: &pb.ServerName{HostName: proto.String("h2"), Port: proto.Uint32(16020)}})
	if got, err := parseMetaZNode(meta); err != nil || got != "h2:16020" {
		t.Fatalf("meta = %q, %v", got, err)
	}
	for name, bad := range map[string][]byte{
		"empty":        nil,
		"no marker":    []byte("PBUF\x0a\x00"),
		"id too long":  {0xFF, 0, 0, 1, 0, 'x'},
		"no magic":     {0xFF, 0, 0, 0, 0, 'X', 'B', 'U', 'F'},
		"no server":    znode("x", &pb.Master{}),
		"bad protobuf": append(znode("x", &pb.Master{}), 0xff),
	} {
		if _, err := parseMasterZNode(bad); err == nil {
			t.Errorf("%s: parseMasterZNode accepted %x", name, bad)
		}
	}
}

func FuzzParseZNode(f *testing.F) {
	f.Add(znode("id", &pb.Master{Master: &pb.ServerName{HostName: proto.String("h"), Port: proto.Uint32(1)}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseMasterZNode(b)
		_, _ = parseMetaZNode(b)
	})
}

func metaRow(name string, ri *pb.RegionInfo, server string) Result {
	v, _ := proto.Marshal(ri)
	cells := []Cell{{Row: []byte(name), Family: []byte("info"), Qualifier: []byte("regioninfo"), Value: append([]byte("PBUF"), v...)}}
	if server != "" {
		cells = append(cells, Cell{Row: []byte(name), Family: []byte("info"), Qualifier: []byte("server"), Value: []byte(server)})
	}
	return Result{Cells: cells}
}

func TestParseMetaRow(t *testing.T) {
	ri := &pb.RegionInfo{RegionId: proto.Uint64(9), TableName: &pb.TableName{Namespace: []byte("default"), Qualifier: []byte("usertable")},
		StartKey: []byte("b"), EndKey: []byte("d")}
	got, ok, err := parseMetaRow(metaRow("usertable,b,9.enc.", ri, "rs:16020"))
	if err != nil || !ok || got.Table != "usertable" || string(got.StartKey) != "b" || got.Server != "rs:16020" || string(got.Name) != "usertable,b,9.enc." {
		t.Fatalf("got %+v ok=%v err=%v", got, ok, err)
	}
	if !got.contains([]byte("c")) || got.contains([]byte("d")) || got.contains([]byte("a")) {
		t.Fatal("contains is wrong at the region's edges")
	}
	split := proto.Clone(ri).(*pb.RegionInfo)
	split.Split, split.Offline = proto.Bool(true), proto.Bool(true)
	if _, ok, err := parseMetaRow(metaRow("x", split, "rs:1")); ok || err != nil {
		t.Fatal("a split parent must not be usable")
	}
	ns := proto.Clone(ri).(*pb.RegionInfo)
	ns.TableName.Namespace = []byte("ns1")
	if got, _, _ := parseMetaRow(metaRow("x", ns, "")); got.Table != "ns1:usertable" || got.Server != "" {
		t.Fatalf("namespaced table parsed as %+v", got)
	}
	bad := metaRow("x", ri, "")
	bad.Cells[0].Value = []byte("junk")
	if _, _, err := parseMetaRow(bad); err == nil {
		t.Fatal("regioninfo without PBUF magic accepted")
	}
}

func TestRegionFromMeta(t *testing.T) {
	mk := func(table, start, end string, split bool, server string) *pb.Result {
		ri := &pb.RegionInfo{RegionId: proto.Uint64(1), TableName: toTableName(table), StartKey: []byte(start), EndKey: []byte(end), Split: proto.Bool(split)}
		r := metaRow(table+","+start+",1.e.", ri, server)
		out := &pb.Result{}
		for _, c := range r.Cells {
			out.Cell = append(out.Cell, &pb.Cell{Row: c.Row, Family: c.Family, Qualifier: c.Qualifier, Value: c.Value})
		}
		return out
	}
	resp := &pb.ScanResponse{Results: []*pb.Result{mk("t", "m", "", false, "rs:1"), mk("t", "", "m", false, "rs:2")}}
	if r, err := regionFromMeta(resp, "t", []byte("z")); err != nil || r.Server != "rs:1" {
		t.Fatalf("got %+v, %v", r, err)
	}
	// A split parent listed first is skipped in favour of the next row.
	resp = &pb.ScanResponse{Results: []*pb.Result{mk("t", "a", "", true, "rs:1"), mk("t", "", "z", false, "rs:2")}}
	if r, err := regionFromMeta(resp, "t", []byte("b")); err != nil || r.Server != "rs:2" {
		t.Fatalf("got %+v, %v", r, err)
	}
	if _, err := regionFromMeta(&pb.ScanResponse{Results: []*pb.Result{mk("other", "", "", false, "rs:1")}}, "t", []byte("a")); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("another table's row must give table not found, got %v", err)
	}
	if _, err := regionFromMeta(&pb.ScanResponse{Results: []*pb.Result{mk("t", "", "", false, "")}}, "t", []byte("a")); classify(err) != retryBackoff {
		t.Fatalf("unassigned region must back off, got %v", err)
	}
}

func TestRegionCacheReplacesOverlaps(t *testing.T) {
	rc := newRegionCache()
	r := func(s, e, srv string) *RegionInfo {
		return &RegionInfo{Table: "t", Name: []byte("t," + s + "," + srv), StartKey: []byte(s), EndKey: []byte(e), Server: srv}
	}
	rc.add(r("", "m", "a"))
	rc.add(r("m", "", "b"))
	if got := rc.find("t", []byte("x")); got == nil || got.Server != "b" {
		t.Fatalf("find x = %+v", got)
	}
	if got := rc.find("t", []byte("")); got == nil || got.Server != "a" {
		t.Fatalf("find empty row = %+v", got)
	}
	// A split of [m,) into [m,s) and [s,) evicts the parent.
	rc.add(r("m", "s", "c"))
	if got := rc.find("t", []byte("x")); got != nil {
		t.Fatalf("stale parent still cached: %+v", got)
	}
	if got := rc.find("t", []byte("n")); got == nil || got.Server != "c" {
		t.Fatalf("find n = %+v", got)
	}
	rc.removeServer("a")
	if rc.find("t", []byte("b")) != nil {
		t.Fatal("removeServer kept a region")
	}
	rc.remove(r("m", "s", "c"))
	if rc.find("t", []byte("n")) != nil {
		t.Fatal("remove kept the region")
	}
	if rc.find("other", []byte("n")) != nil {
		t.Fatal("unknown table found")
	}
}

func TestTableNames(t *testing.T) {
	for _, name := range []string{"usertable", "ns:t1"} {
		if got := tableNameString(toTableName(name)); got != name {
			t.Errorf("round trip %q -> %q", name, got)
		}
	}
	if got := string(metaRowFor("t", []byte("r"))); got != "t,r,99999999999999" {
		t.Errorf("metaRowFor = %q", got)
	}
}

func TestFamilySchemaValidates(t *testing.T) {
	yes := true
	cf, err := familySchema("t", FamilySpec{Name: "f", Compression: "snappy", Versions: 3, BloomFilter: "ROW", DataBlockEncoding: "FAST_DIFF", BlockCache: &yes})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range cf.Attributes {
		got[string(a.First)] = string(a.Second)
	}
	want := map[string]string{"COMPRESSION": "SNAPPY", "VERSIONS": "3", "BLOOMFILTER": "ROW", "DATA_BLOCK_ENCODING": "FAST_DIFF", "BLOCKCACHE": "true"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, bad := range []FamilySpec{{Name: ""}, {Name: "f", Compression: "brotli"}, {Name: "f", Versions: -1}, {Name: "f", BloomFilter: "x"}, {Name: "f", DataBlockEncoding: "y"}} {
		if _, err := familySchema("t", bad); err == nil {
			t.Errorf("familySchema accepted %+v", bad)
		}
	}
}

func TestParseTableZNodeReadsLegacyStates(t *testing.T) {
	header := []byte{0xFF, 0, 0, 0, 2, 'i', 'd'}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"disabled with header", append(append(append([]byte(nil), header...), "PBUF"...), 0x08, 0x01), "DISABLED"},
		{"enabling bare magic", append([]byte("PBUF"), 0x08, 0x03), "ENABLING"},
		{"state omitted means enabled", append(append([]byte(nil), header...), "PBUF"...), "ENABLED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseTableZNode(tc.data)
			if err != nil || got != tc.want {
				t.Fatalf("parseTableZNode = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := parseTableZNode([]byte("junk")); err == nil {
		t.Error("junk data parsed without error")
	}
	if _, err := parseTableZNode(append([]byte("PBUF"), 0x08, 0x09)); err == nil {
		t.Error("unknown state 9 parsed without error")
	}
}

func TestFamilySchemaSendsDefaultsOldMastersNeed(t *testing.T) {
	cf, err := familySchema("t", FamilySpec{Name: "f", Versions: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range cf.Attributes {
		if _, dup := got[string(a.First)]; dup {
			t.Errorf("attribute %s sent twice", a.First)
		}
		got[string(a.First)] = string(a.Second)
	}
	if got["VERSIONS"] != "3" {
		t.Errorf("VERSIONS = %q, want the caller's 3", got["VERSIONS"])
	}
	for _, k := range []string{"TTL", "BLOCKSIZE", "MIN_VERSIONS", "REPLICATION_SCOPE"} {
		if got[k] == "" {
			t.Errorf("%s not sent: HBase 1.x fails CreateTable without it", k)
		}
	}
}
