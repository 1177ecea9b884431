package hbase

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// metaRegionName is the region name of hbase:meta (one region in 2.x and 3.x).
var metaRegionName = []byte("hbase:meta,,1")

// metaTable is the catalog table's name.
const metaTable = "hbase:meta"

var (
	infoFamily       = []byte("info")
	regionInfoQual   = []byte("regioninfo")
	serverQual       = []byte("server")
	metaLookupRows   = uint32(5)
	metaLookupSuffix = []byte(",99999999999999")
	defaultNamespace = "default"
	namespaceSep     = ":"
)

// RegionInfo describes one region of a table and the server hosting it.
type RegionInfo struct {
	Table    string
	Name     []byte // full region name, the meta row key
	StartKey []byte
	EndKey   []byte // empty for the last region
	ID       uint64
	Server   string // host:port; empty while the region is not assigned

	pb *pb.RegionInfo
}

// contains reports whether row falls in the region's key range.
func (r *RegionInfo) contains(row []byte) bool {
	return bytes.Compare(row, r.StartKey) >= 0 && (len(r.EndKey) == 0 || bytes.Compare(row, r.EndKey) < 0)
}

// tableNameString formats a TableName as HBase does: the default namespace is omitted.
func tableNameString(t *pb.TableName) string {
	ns := string(t.GetNamespace())
	if ns == "" || ns == defaultNamespace {
		return string(t.GetQualifier())
	}
	return ns + namespaceSep + string(t.GetQualifier())
}

// toTableName splits "ns:q" (or "q" in the default namespace).
func toTableName(name string) *pb.TableName {
	ns, q := defaultNamespace, name
	if i := strings.IndexByte(name, ':'); i >= 0 {
		ns, q = name[:i], name[i+1:]
	}
	return &pb.TableName{Namespace: []byte(ns), Qualifier: []byte(q)}
}

// metaRowFor is the reversed-scan start key that finds row's region of table.
func metaRowFor(table string, row []byte) []byte {
	k := make([]byte, 0, len(table)+len(row)+len(metaLookupSuffix)+1)
	k = append(k, table...)
	k = append(k, ',')
	k = append(k, row...)
	return append(k, metaLookupSuffix...)
}

// parseMetaRow decodes one hbase:meta row. ok is false for rows that do not
// describe a usable region (split parents and offline regions).
func parseMetaRow(r Result) (ri *RegionInfo, ok bool, err error) {
	var name, info, server []byte
	for _, c := range r.Cells {
		if !bytes.Equal(c.Family, infoFamily) {
			continue
		}
		name = c.Row
		switch {
		case bytes.Equal(c.Qualifier, regionInfoQual):
			info = c.Value
		case bytes.Equal(c.Qualifier, serverQual):
			server = c.Value
		}
	}
	if info == nil {
		return nil, false, nil // a row without regioninfo (e.g. table state row): not a region
	}
	if !bytes.HasPrefix(info, pbMagic) {
		return nil, false, fmt.Errorf("hbase:meta row %q: info:regioninfo lacks the PBUF magic", name)
	}
	var p pb.RegionInfo
	if err := proto.Unmarshal(info[len(pbMagic):], &p); err != nil {
		return nil, false, fmt.Errorf("hbase:meta row %q: decode info:regioninfo: %w", name, err)
	}
	ri = &RegionInfo{
		Table:    tableNameString(p.GetTableName()),
		Name:     name,
		StartKey: p.GetStartKey(),
		EndKey:   p.GetEndKey(),
		ID:       p.GetRegionId(),
		Server:   string(server),
		pb:       &p,
	}
	if p.GetOffline() || p.GetSplit() || p.GetReplicaId() != 0 {
		return ri, false, nil
	}
	return ri, true, nil
}

// regionCache holds known region locations per table, sorted by start key.
// Reads take a read lock only; the slices are replaced, never edited, so a
// reader's slice stays valid.
type regionCache struct {
	mu     sync.RWMutex
	tables map[string][]*RegionInfo
}

func newRegionCache() *regionCache {
	return &regionCache{tables: make(map[string][]*RegionInfo)}
}

// find returns the cached region of table containing row, or nil.
func (rc *regionCache) find(table string, row []byte) *RegionInfo {
	rc.mu.RLock()
	rs := rc.tables[table]
	rc.mu.RUnlock()
	i := sort.Search(len(rs), func(i int) bool { return bytes.Compare(rs[i].StartKey, row) > 0 }) - 1
	if i >= 0 && rs[i].contains(row) {
		return rs[i]
	}
	return nil
}

// add caches r, evicting every cached region of the table it overlaps (they
// are stale: the region was split, merged or moved).
func (rc *regionCache) add(r *RegionInfo) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	old := rc.tables[r.Table]
	rs := make([]*RegionInfo, 0, len(old)+1)
	for _, o := range old {
		if overlaps(o, r) {
			continue
		}
		rs = append(rs, o)
	}
	i := sort.Search(len(rs), func(i int) bool { return bytes.Compare(rs[i].StartKey, r.StartKey) > 0 })
	rs = append(rs, nil)
	copy(rs[i+1:], rs[i:])
	rs[i] = r
	rc.tables[r.Table] = rs
}

func overlaps(a, b *RegionInfo) bool {
	// a ends at or before b starts, or b ends at or before a starts: disjoint.
	if len(a.EndKey) > 0 && bytes.Compare(a.EndKey, b.StartKey) <= 0 {
		return false
	}
	if len(b.EndKey) > 0 && bytes.Compare(b.EndKey, a.StartKey) <= 0 {
		return false
	}
	return true
}

// remove drops r (matched by region name) from the cache.
func (rc *regionCache) remove(r *RegionInfo) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	old := rc.tables[r.Table]
	for i, o := range old {
		if bytes.Equal(o.Name, r.Name) {
			rs := make([]*RegionInfo, 0, len(old)-1)
			rs = append(rs, old[:i]...)
			rs = append(rs, old[i+1:]...)
			rc.tables[r.Table] = rs
			return
		}
	}
}

// removeServer drops every cached region hosted on addr.
func (rc *regionCache) removeServer(addr string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for t, old := range rc.tables {
		rs := old[:0:0]
		for _, o := range old {
			if o.Server != addr {
				rs = append(rs, o)
			}
		}
		rc.tables[t] = rs
	}
}

// removeTable forgets a table (after it is disabled, deleted or recreated).
func (rc *regionCache) removeTable(table string) {
	rc.mu.Lock()
	delete(rc.tables, table)
	rc.mu.Unlock()
}
