package hbase

import (
	"encoding/binary"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// rsZNode is a region server's znode data: the envelope, then
// RegionServerInfo with infoPort (field 1) when port > 0.
func rsZNode(port int) []byte {
	b := []byte{0xFF, 0, 0, 0, 4}
	binary.BigEndian.PutUint32(b[1:], 4)
	b = append(b, "1234PBUF"...)
	if port > 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(port))
	}
	return b
}

// TestInfoServerOfTakesTheOverridePort: with an info port given (--*-info-port)
// every region server's info server is its znode's host at that port, whether
// the znode names another port or none; without one, the znode's port stands.
func TestInfoServerOfTakesTheOverridePort(t *testing.T) {
	cases := []struct {
		name     string
		znode    string
		data     []byte
		override int
		want     string
	}{
		{"the znode's port", "rs1.example,16020,1700000000000", rsZNode(16030), 0, "rs1.example:16030"},
		{"no info server", "rs1.example,16020,1700000000000", rsZNode(0), 0, ""},
		{"override over the znode's port", "rs1.example,16020,1700000000000", rsZNode(16030), 8443, "rs1.example:8443"},
		{"override where the znode hides it", "rs1.example,16020,1700000000000", rsZNode(0), 8443, "rs1.example:8443"},
		{"override on an IPv6 host", "::1,16020,1700000000000", rsZNode(16030), 8443, "[::1]:8443"},
		{"override on garbage data", "rs1.example,16020,1700000000000", []byte("junk"), 8443, "rs1.example:8443"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := infoServerOf(c.znode, c.data, c.override)
			if is.Info != c.want {
				t.Errorf("info server %q, want %q", is.Info, c.want)
			}
			if !strings.HasSuffix(is.Server, ":16020") {
				t.Errorf("server %q, want the znode's host:16020", is.Server)
			}
		})
	}
}

// TestParseInfoPort refuses what is not a port, saying what to give.
func TestParseInfoPort(t *testing.T) {
	for _, s := range []string{"1", "16030", "65535"} {
		if _, err := ParseInfoPort(s); err != nil {
			t.Errorf("%s: %v, want it taken", s, err)
		}
	}
	for _, s := range []string{"0", "-1", "65536", "http", "", "16030x"} {
		if _, err := ParseInfoPort(s); err == nil || !strings.Contains(err.Error(), "1 to 65535") {
			t.Errorf("%q: %v, want a refusal saying 1 to 65535", s, err)
		}
	}
}
