package hbase

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// regionLoadWire encodes one RegionLoad as a 2.6 server sends it: the
// fields regress reads among others it skips (stores, storefiles, data
// locality, compaction state).
func regionLoadWire(name string, read, write, filtered uint64) []byte {
	var spec []byte
	spec = protowire.AppendTag(spec, 1, protowire.VarintType)
	spec = protowire.AppendVarint(spec, 1) // REGION_NAME
	spec = protowire.AppendTag(spec, 2, protowire.BytesType)
	spec = protowire.AppendBytes(spec, []byte(name))
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, spec)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, 4)
	b = protowire.AppendTag(b, 8, protowire.VarintType)
	b = protowire.AppendVarint(b, read)
	b = protowire.AppendTag(b, 9, protowire.VarintType)
	b = protowire.AppendVarint(b, write)
	b = protowire.AppendTag(b, 16, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, 0x3f800000) // data_locality 1.0
	b = protowire.AppendTag(b, 19, protowire.VarintType)
	b = protowire.AppendVarint(b, filtered)
	b = protowire.AppendTag(b, 27, protowire.VarintType)
	b = protowire.AppendVarint(b, 0)
	return b
}

func TestRegionRequestsDecodeServerAnswer(t *testing.T) {
	tests := []struct {
		name  string
		loads [][4]any // region, read, write, filtered
		want  []RegionRequests
	}{
		{name: "no region of the table on this server"},
		{
			name:  "one region",
			loads: [][4]any{{"t,,1.abc.", uint64(2400), uint64(0), uint64(0)}},
			want:  []RegionRequests{{Region: "t,,1.abc.", Server: "rs:16020", Read: 2400}},
		},
		{
			name: "two regions, every counter",
			loads: [][4]any{
				{"t,,1.a.", uint64(1 << 40), uint64(7), uint64(3)},
				{"t,m,1.b.", uint64(5), uint64(1200), uint64(0)},
			},
			want: []RegionRequests{
				{Region: "t,,1.a.", Server: "rs:16020", Read: 1 << 40, Write: 7, FilteredRead: 3},
				{Region: "t,m,1.b.", Server: "rs:16020", Read: 5, Write: 1200},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wire []byte
			for _, l := range tt.loads {
				wire = protowire.AppendTag(wire, 1, protowire.BytesType)
				wire = protowire.AppendBytes(wire, regionLoadWire(l[0].(string), l[1].(uint64), l[2].(uint64), l[3].(uint64)))
			}
			var resp pb.GetRegionLoadResponse
			if err := proto.Unmarshal(wire, &resp); err != nil {
				t.Fatal(err)
			}
			got := regionRequests("rs:16020", resp.GetRegionLoads())
			if len(got) != len(tt.want) {
				t.Fatalf("got %d regions %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("region %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestTableRequestsOnLegacyClusterIsNotAvailable(t *testing.T) {
	c := &Client{legacy: true}
	_, err := c.TableRequests(context.Background(), "t", []string{"127.0.0.1:1"})
	if !errors.Is(err, ErrNoRegionLoad) {
		t.Fatalf("got %v, want ErrNoRegionLoad", err)
	}
}

func TestUnknownMethodClasses(t *testing.T) {
	for class, want := range map[string]bool{
		"org.apache.hadoop.hbase.exceptions.UnknownProtocolException": true,
		"java.lang.UnsupportedOperationException":                     true,
		"org.apache.hadoop.hbase.NotServingRegionException":           false,
	} {
		if got := isUnknownMethod(&RemoteError{Class: class}); got != want {
			t.Errorf("%s: got %v, want %v", class, got, want)
		}
	}
}
