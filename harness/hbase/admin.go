package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// FamilySpec describes one column family of a new table. Empty or zero fields
// keep HBase's defaults.
type FamilySpec struct {
	Name              string
	Compression       string // NONE, SNAPPY, GZ, LZ4, ZSTD, LZO, BZIP2
	Versions          int
	BloomFilter       string // NONE, ROW, ROWCOL, ROWPREFIX_FIXED_LENGTH
	DataBlockEncoding string // NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1
	BlockCache        *bool
	// BlockSize is the HFile block size in bytes (HBase's default 65536).
	BlockSize int
	// InMemory gives the family's blocks the block cache's in-memory priority.
	InMemory *bool
	// Configuration holds the family's own settings (the shell's
	// CONFIGURATION => {...}), e.g. hbase.hstore.compactionThreshold.
	Configuration map[string]string
}

// maxBlockSize is the largest BLOCKSIZE HBase accepts for a family (16 MiB).
const maxBlockSize = 16 << 20

// ValidateFamily checks a family's attributes as CreateTable would send
// them, so a suite can be refused before any server starts.
func ValidateFamily(f FamilySpec) error {
	_, err := familySchema("", f)
	return err
}

// TableSpec describes a table to create; SplitKeys pre-split it into
// len(SplitKeys)+1 regions.
type TableSpec struct {
	Name      string
	Families  []FamilySpec
	SplitKeys [][]byte
}

// SnapshotInfo describes a completed snapshot.
type SnapshotInfo struct {
	Name    string
	Table   string
	Created time.Time
}

var (
	validCompression = []string{"NONE", "SNAPPY", "GZ", "LZ4", "ZSTD", "LZO", "BZIP2", "LZMA"}
	validBloom       = []string{"NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"}
	validEncoding    = []string{"NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"}
)

func checkChoice(table, family, attr, v string, valid []string) (string, error) {
	u := strings.ToUpper(v)
	if !slices.Contains(valid, u) {
		return "", fmt.Errorf("hbase: table %q family %q: %s %q is not one of %s", table, family, attr, v, strings.Join(valid, ", "))
	}
	return u, nil
}

// familySchema validates f and turns it into HBase's schema attributes.
func familySchema(table string, f FamilySpec) (*pb.ColumnFamilySchema, error) {
	if f.Name == "" || strings.ContainsAny(f.Name, ":") {
		return nil, fmt.Errorf("hbase: table %q: column family name %q must be non-empty and contain no ':'", table, f.Name)
	}
	cf := &pb.ColumnFamilySchema{Name: []byte(f.Name)}
	add := func(k, v string) {
		cf.Attributes = append(cf.Attributes, &pb.BytesBytesPair{First: []byte(k), Second: []byte(v)})
	}
	if f.Compression != "" {
		v, err := checkChoice(table, f.Name, "COMPRESSION", f.Compression, validCompression)
		if err != nil {
			return nil, err
		}
		add("COMPRESSION", v)
	}
	if f.Versions < 0 {
		return nil, fmt.Errorf("hbase: table %q family %q: VERSIONS %d must be positive", table, f.Name, f.Versions)
	}
	if f.Versions > 0 {
		add("VERSIONS", strconv.Itoa(f.Versions))
	}
	if f.BloomFilter != "" {
		v, err := checkChoice(table, f.Name, "BLOOMFILTER", f.BloomFilter, validBloom)
		if err != nil {
			return nil, err
		}
		add("BLOOMFILTER", v)
	}
	if f.DataBlockEncoding != "" {
		v, err := checkChoice(table, f.Name, "DATA_BLOCK_ENCODING", f.DataBlockEncoding, validEncoding)
		if err != nil {
			return nil, err
		}
		add("DATA_BLOCK_ENCODING", v)
	}
	if f.BlockCache != nil {
		add("BLOCKCACHE", strconv.FormatBool(*f.BlockCache))
	}
	if f.InMemory != nil {
		add("IN_MEMORY", strconv.FormatBool(*f.InMemory))
	}
	if f.BlockSize != 0 {
		if f.BlockSize < 1024 || f.BlockSize > maxBlockSize {
			return nil, fmt.Errorf("hbase: table %q family %q: BLOCKSIZE %d must lie within 1024 and %d bytes", table, f.Name, f.BlockSize, maxBlockSize)
		}
		add("BLOCKSIZE", strconv.Itoa(f.BlockSize))
	}
	for _, k := range slices.Sorted(maps.Keys(f.Configuration)) {
		if strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("hbase: table %q family %q: a configuration key is empty", table, f.Name)
		}
		cf.Configuration = append(cf.Configuration, &pb.NameStringPair{Name: proto.String(k), Value: proto.String(f.Configuration[k])})
	}
	// HBase 1.x reads a family's attributes without defaults (its Java client
	// always sends them all): a missing VERSIONS fails CreateTable with
	// "NumberFormatException: null". Send HBase's defaults for the rest.
	set := map[string]bool{}
	for _, a := range cf.Attributes {
		set[string(a.First)] = true
	}
	for _, d := range familyDefaults {
		if !set[d[0]] {
			add(d[0], d[1])
		}
	}
	return cf, nil
}

// familyDefaults are HColumnDescriptor's defaults, identical from 1.x to 3.x.
var familyDefaults = [][2]string{
	{"VERSIONS", "1"}, {"MIN_VERSIONS", "0"}, {"TTL", "2147483647"}, {"BLOCKSIZE", "65536"},
	{"BLOCKCACHE", "true"}, {"IN_MEMORY", "false"}, {"KEEP_DELETED_CELLS", "FALSE"},
	{"COMPRESSION", "NONE"}, {"DATA_BLOCK_ENCODING", "NONE"}, {"BLOOMFILTER", "ROW"},
	{"REPLICATION_SCOPE", "0"},
}

// nonce gives admin calls an identity so a retried call is not run twice.
func nonce() *uint64 { return proto.Uint64(rand.Uint64()) }

// CreateTable creates a table and waits until its regions are online.
func (c *Client) CreateTable(ctx context.Context, s TableSpec) error {
	if s.Name == "" {
		return errors.New("hbase: create table: empty table name")
	}
	if len(s.Families) == 0 {
		return fmt.Errorf("hbase: create table %q: at least one column family is needed", s.Name)
	}
	schema := &pb.TableSchema{TableName: toTableName(s.Name)}
	for _, f := range s.Families {
		cf, err := familySchema(s.Name, f)
		if err != nil {
			return err
		}
		schema.ColumnFamilies = append(schema.ColumnFamilies, cf)
	}
	splits := slices.Clone(s.SplitKeys)
	slices.SortFunc(splits, bytes.Compare)
	for i, k := range splits {
		if len(k) == 0 {
			return fmt.Errorf("hbase: create table %q: empty split key", s.Name)
		}
		if i > 0 && bytes.Equal(k, splits[i-1]) {
			return fmt.Errorf("hbase: create table %q: duplicate split key %q", s.Name, k)
		}
	}
	req := &pb.CreateTableRequest{TableSchema: schema, SplitKeys: splits, NonceGroup: nonce(), Nonce: nonce()}
	var resp pb.CreateTableResponse
	if err := c.masterCall(ctx, s.Name, "CreateTable", req, &resp); err != nil {
		return fmt.Errorf("hbase: create table %q: %w", s.Name, err)
	}
	c.cache.removeTable(s.Name)
	if resp.ProcId == nil {
		return c.waitTable(ctx, s.Name, "create table", "ENABLED", len(splits)+1)
	}
	return c.waitProcedure(ctx, s.Name, "create table", resp.GetProcId())
}

// tableProc runs EnableTable, DisableTable or DeleteTable and waits for it.
func (c *Client) tableProc(ctx context.Context, method, what, table string) error {
	req := &pb.TableRequest{TableName: toTableName(table), NonceGroup: nonce(), Nonce: nonce()}
	var resp pb.ProcResponse
	if err := c.masterCall(ctx, table, method, req, &resp); err != nil {
		return fmt.Errorf("hbase: %s %q: %w", what, table, err)
	}
	defer c.cache.removeTable(table)
	if resp.ProcId == nil {
		switch method {
		case "EnableTable":
			return c.waitTable(ctx, table, what, "ENABLED", 0)
		case "DisableTable":
			return c.waitTable(ctx, table, what, "DISABLED", 0)
		default:
			return c.waitTableGone(ctx, table, what)
		}
	}
	return c.waitProcedure(ctx, table, what, resp.GetProcId())
}

// waitTable waits for an admin call the master ran without a procedure (HBase
// 0.98 and 1.0 answer CreateTable, EnableTable and DisableTable with no
// proc_id and finish in the background), as their Java client waited: until
// the table's state is want and, for ENABLED, every region of it (at least
// regions, when that is above 0) has a server in hbase:meta.
func (c *Client) waitTable(ctx context.Context, table, what, want string, regions int) error {
	var last string
	err := poll(ctx, time.Second, func() (bool, error) {
		st, err := c.TableState(ctx, table)
		var nf *TableNotFoundError
		if errors.As(err, &nf) && want != "DISABLED" {
			last = "not yet in ZooKeeper"
			return false, nil // created in the background: not there yet
		}
		if err != nil {
			return false, err
		}
		if last = st; st != want {
			return false, nil
		}
		if want != "ENABLED" {
			return true, nil
		}
		rs, err := c.TableRegions(ctx, table)
		if errors.As(err, &nf) {
			last = "no regions in hbase:meta yet"
			return false, nil
		}
		if err != nil {
			return false, err
		}
		online := 0
		for _, r := range rs {
			if r.Server != "" {
				online++
			}
		}
		last = fmt.Sprintf("%d of %d regions online", online, max(len(rs), regions))
		return online == len(rs) && online >= regions, nil
	})
	if err != nil {
		return fmt.Errorf("hbase: %s %q (last seen: %s): %w", what, table, last, err)
	}
	return nil
}

// waitTableGone waits for a DeleteTable the master ran without a procedure:
// until hbase:meta holds no region of the table and its state is gone.
func (c *Client) waitTableGone(ctx context.Context, table, what string) error {
	err := poll(ctx, time.Second, func() (bool, error) {
		_, err := c.TableRegions(ctx, table)
		var nf *TableNotFoundError
		if !errors.As(err, &nf) {
			return false, err
		}
		exists, err := c.TableExists(ctx, table)
		return !exists, err
	})
	if err != nil {
		return fmt.Errorf("hbase: %s %q: %w", what, table, err)
	}
	return nil
}

// EnableTable enables a disabled table and waits.
func (c *Client) EnableTable(ctx context.Context, table string) error {
	return c.tableProc(ctx, "EnableTable", "enable table", table)
}

// DisableTable disables a table and waits.
func (c *Client) DisableTable(ctx context.Context, table string) error {
	return c.tableProc(ctx, "DisableTable", "disable table", table)
}

// DeleteTable deletes a disabled table and waits.
func (c *Client) DeleteTable(ctx context.Context, table string) error {
	return c.tableProc(ctx, "DeleteTable", "delete table", table)
}

// waitProcedure polls a master procedure until it finishes.
func (c *Client) waitProcedure(ctx context.Context, table, what string, procID uint64) error {
	req := &pb.GetProcedureResultRequest{ProcId: proto.Uint64(procID)}
	err := poll(ctx, time.Second, func() (bool, error) {
		var resp pb.GetProcedureResultResponse
		if err := c.masterCall(ctx, table, "getProcedureResult", req, &resp); err != nil {
			return false, fmt.Errorf("poll procedure %d: %w", procID, err)
		}
		switch resp.GetState() {
		case pb.GetProcedureResultResponse_FINISHED:
			if ex := resp.GetException(); ex != nil {
				ge := ex.GetGenericException()
				re := &RemoteError{Class: ge.GetClassName(), Message: ge.GetMessage(), Server: c.masterAddr(), Table: table, DoNotRetry: true}
				return false, fmt.Errorf("procedure %d failed: %w", procID, mapRemote(re))
			}
			return true, nil
		case pb.GetProcedureResultResponse_NOT_FOUND:
			return false, fmt.Errorf("master does not know procedure %d (did the master restart?)", procID)
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("hbase: %s %q: %w", what, table, err)
	}
	return nil
}

// poll calls check until it reports done or fails, sleeping between calls
// from 50 ms, doubling up to maxDelay: the one wait loop of the admin calls.
// A context that ends first gives "waiting: " and its error.
func poll(ctx context.Context, maxDelay time.Duration, check func() (done bool, err error)) error {
	delay := 50 * time.Millisecond
	for {
		done, err := check()
		if err != nil || done {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("waiting: %w", ctx.Err())
		}
		delay = min(delay*2, maxDelay)
	}
}

// TableState returns ENABLED, DISABLED, ENABLING or DISABLING.
func (c *Client) TableState(ctx context.Context, table string) (string, error) {
	if c.legacy {
		return c.legacyTableState(ctx, table)
	}
	var resp pb.GetTableStateResponse
	if err := c.masterCall(ctx, table, "GetTableState", &pb.GetTableStateRequest{TableName: toTableName(table)}, &resp); err != nil {
		return "", fmt.Errorf("hbase: state of table %q: %w", table, err)
	}
	return resp.GetTableState().GetState().String(), nil
}

// TableExists reports whether the table exists.
func (c *Client) TableExists(ctx context.Context, table string) (bool, error) {
	_, err := c.TableState(ctx, table)
	var nf *TableNotFoundError
	if errors.As(err, &nf) {
		return false, nil
	}
	return err == nil, err
}

// ListTables returns the user tables ("ns:name" outside the default namespace).
func (c *Client) ListTables(ctx context.Context) ([]string, error) {
	var resp pb.GetTableNamesResponse
	if err := c.masterCall(ctx, "", "GetTableNames", &pb.GetTableNamesRequest{IncludeSysTables: proto.Bool(false)}, &resp); err != nil {
		return nil, fmt.Errorf("hbase: list tables: %w", err)
	}
	out := make([]string, 0, len(resp.GetTableNames()))
	for _, t := range resp.GetTableNames() {
		out = append(out, tableNameString(t))
	}
	sort.Strings(out)
	return out, nil
}

// TableRegions lists the table's online regions in key order, read from hbase:meta.
func (c *Client) TableRegions(ctx context.Context, table string) ([]RegionInfo, error) {
	rows, err := c.Scan(ctx, metaTable, ScanOptions{
		// hbase:meta compares row keys part by part (table, start key, id), so
		// "<table>,," is the first possible row of the table and "<table>-,,"
		// (',' + 1) sorts after all of them. The stop row keeps its two
		// delimiters: 0.98's meta comparator puts a row without one before
		// every row with one, and "<table>-" stopped the scan at once there.
		StartRow: []byte(table + ",,"),
		StopRow:  []byte(table + "-,,"),
		Family:   infoFamily,
	})
	if err != nil {
		return nil, fmt.Errorf("hbase: list regions of table %q: %w", table, err)
	}
	var out []RegionInfo
	for _, r := range rows {
		ri, ok, err := parseMetaRow(r)
		if err != nil {
			return nil, err
		}
		if ri == nil || !ok || ri.Table != table {
			continue
		}
		out = append(out, *ri)
	}
	if len(out) == 0 {
		return nil, &TableNotFoundError{Table: table}
	}
	return out, nil
}

// eachRegion calls fn on every region of table with an AdminService
// connection to its server, re-listing and retrying regions whose calls fail
// with retriable errors (a region moved or split meanwhile).
func (c *Client) eachRegion(ctx context.Context, table, what string, fn func(ctx context.Context, r *RegionInfo, cn *conn) error) error {
	done := map[string]bool{}
	var lastErr error
	for attempt := 0; ; attempt++ {
		regions, err := c.TableRegions(ctx, table)
		if err != nil {
			return err
		}
		failed := false
		for i := range regions {
			r := &regions[i]
			if done[string(r.Name)] {
				continue
			}
			var cn *conn
			if r.Server == "" {
				err = fmt.Errorf("region %q: %w", r.Name, errRegionOffline)
			} else if cn, err = c.getConn(ctx, r.Server, adminService); err == nil {
				err = fn(ctx, r, cn)
			}
			if err != nil {
				var re *RemoteError
				if errors.As(err, &re) && re.Table == "" {
					re.Table = table
				}
				if ctx.Err() != nil || classify(err) == retryNever {
					if re != nil {
						return fmt.Errorf("hbase: %s %q: %w", what, table, mapRemote(re))
					}
					return fmt.Errorf("hbase: %s %q: %w", what, table, err)
				}
				lastErr = err
				failed = true
				continue
			}
			done[string(r.Name)] = true
		}
		if !failed {
			return nil
		}
		if attempt >= c.cfg.maxRetries {
			return &RetriesExhaustedError{Op: what, Table: table, Attempts: attempt + 1, Err: lastErr}
		}
		if err := c.backoff(ctx, attempt); err != nil {
			return fmt.Errorf("hbase: %s %q: %w (last error: %v)", what, table, err, lastErr)
		}
	}
}

// FlushTable flushes every region's memstore to store files; it returns when
// all flushes are done.
func (c *Client) FlushTable(ctx context.Context, table string) error {
	return c.eachRegion(ctx, table, "flush table", func(ctx context.Context, r *RegionInfo, cn *conn) error {
		var resp pb.FlushRegionResponse
		return cn.invoke(ctx, "FlushRegion", &pb.FlushRegionRequest{Region: regionSpec(r)}, &resp, c.cfg.rpcTimeout)
	})
}

// MajorCompactTable requests a major compaction of every region and waits
// until every region's compaction state is NONE.
func (c *Client) MajorCompactTable(ctx context.Context, table string) error {
	err := c.eachRegion(ctx, table, "major compact table", func(ctx context.Context, r *RegionInfo, cn *conn) error {
		var resp pb.CompactRegionResponse
		return cn.invoke(ctx, "CompactRegion", &pb.CompactRegionRequest{Region: regionSpec(r), Major: proto.Bool(true)}, &resp, c.cfg.rpcTimeout)
	})
	if err != nil {
		return err
	}
	busy := 0
	err = poll(ctx, 2*time.Second, func() (bool, error) {
		busy = 0
		err := c.eachRegion(ctx, table, "compaction state of table", func(ctx context.Context, r *RegionInfo, cn *conn) error {
			st, err := compactionState(ctx, cn, r, c.cfg.rpcTimeout)
			if err != nil {
				return err
			}
			if st != pb.GetRegionInfoResponse_NONE {
				busy++
			}
			return nil
		})
		return busy == 0 && err == nil, err
	})
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("hbase: major compact table %q: %d regions still compacting: %w", table, busy, err)
	}
	return err
}

// Snapshot takes a flush snapshot of table named name and waits until it is done.
func (c *Client) Snapshot(ctx context.Context, table, name string) error {
	desc := &pb.SnapshotDescription{Name: proto.String(name), Table: proto.String(table), Type: pb.SnapshotDescription_FLUSH.Enum(), Version: proto.Int32(2)}
	if c.pre1 {
		// 0.98.0 knows only layout 0 and fills in its own when none is asked.
		desc.Version = nil
	}
	var resp pb.SnapshotResponse
	if err := c.masterCall(ctx, table, "Snapshot", &pb.SnapshotRequest{Snapshot: desc, NonceGroup: nonce(), Nonce: nonce()}, &resp); err != nil {
		return fmt.Errorf("hbase: snapshot %q of table %q: %w", name, table, err)
	}
	if resp.GetProcId() > 0 {
		// 2.6+ runs snapshots as procedures; IsSnapshotDone does not know the
		// snapshot until the procedure has registered it, so wait on the procedure.
		return c.waitProcedure(ctx, table, "snapshot "+name+" of table", uint64(resp.GetProcId()))
	}
	err := poll(ctx, time.Second, func() (bool, error) {
		var done pb.IsSnapshotDoneResponse
		err := c.masterCall(ctx, table, "IsSnapshotDone", &pb.IsSnapshotDoneRequest{Snapshot: desc}, &done)
		return done.GetDone(), err
	})
	if err != nil {
		return fmt.Errorf("hbase: snapshot %q of table %q: %w", name, table, err)
	}
	return nil
}

// CloneSnapshot creates newTable from a snapshot and waits until it is online.
func (c *Client) CloneSnapshot(ctx context.Context, snapshot, newTable string) error {
	// A clone is RestoreSnapshot naming a table that does not exist yet; on an
	// existing table the same call would mean "restore", so check first.
	exists, err := c.TableExists(ctx, newTable)
	if err != nil {
		return fmt.Errorf("hbase: clone snapshot %q to table %q: %w", snapshot, newTable, err)
	}
	if exists {
		return fmt.Errorf("hbase: clone snapshot %q: %w", snapshot, &TableExistsError{Table: newTable})
	}
	desc := &pb.SnapshotDescription{Name: proto.String(snapshot), Table: proto.String(newTable)}
	var resp pb.RestoreSnapshotResponse
	if err := c.masterCall(ctx, newTable, "RestoreSnapshot", &pb.RestoreSnapshotRequest{Snapshot: desc, NonceGroup: nonce(), Nonce: nonce()}, &resp); err != nil {
		return fmt.Errorf("hbase: clone snapshot %q to table %q: %w", snapshot, newTable, err)
	}
	c.cache.removeTable(newTable)
	if resp.GetProcId() == 0 {
		return c.waitRestoreSnapshot(ctx, desc)
	}
	return c.waitProcedure(ctx, newTable, "clone snapshot "+snapshot+" to table", resp.GetProcId())
}

// waitRestoreSnapshot polls IsRestoreSnapshotDone: HBase 1.x clones a
// snapshot without a procedure and answers RestoreSnapshot with no proc_id.
func (c *Client) waitRestoreSnapshot(ctx context.Context, desc *pb.SnapshotDescription) error {
	what := fmt.Sprintf("clone snapshot %q to table %q", desc.GetName(), desc.GetTable())
	err := poll(ctx, time.Second, func() (bool, error) {
		var done pb.IsRestoreSnapshotDoneResponse
		err := c.masterCall(ctx, desc.GetTable(), "IsRestoreSnapshotDone", &pb.IsRestoreSnapshotDoneRequest{Snapshot: desc}, &done)
		return done.GetDone(), err
	})
	if err != nil {
		return fmt.Errorf("hbase: %s: %w", what, err)
	}
	return nil
}

// ListSnapshots returns the completed snapshots.
func (c *Client) ListSnapshots(ctx context.Context) ([]SnapshotInfo, error) {
	var resp pb.GetCompletedSnapshotsResponse
	if err := c.masterCall(ctx, "", "GetCompletedSnapshots", &pb.GetCompletedSnapshotsRequest{}, &resp); err != nil {
		return nil, fmt.Errorf("hbase: list snapshots: %w", err)
	}
	out := make([]SnapshotInfo, 0, len(resp.GetSnapshots()))
	for _, s := range resp.GetSnapshots() {
		out = append(out, SnapshotInfo{Name: s.GetName(), Table: s.GetTable(), Created: time.UnixMilli(s.GetCreationTime())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// DeleteSnapshot deletes a snapshot.
func (c *Client) DeleteSnapshot(ctx context.Context, name string) error {
	var resp pb.DeleteSnapshotResponse
	if err := c.masterCall(ctx, "", "DeleteSnapshot", &pb.DeleteSnapshotRequest{Snapshot: &pb.SnapshotDescription{Name: proto.String(name)}}, &resp); err != nil {
		return fmt.Errorf("hbase: delete snapshot %q: %w", name, err)
	}
	return nil
}

func (c *Client) clusterStatus(ctx context.Context, opts ...pb.GetClusterStatusRequest_Option) (*pb.ClusterStatus, error) {
	var resp pb.GetClusterStatusResponse
	if err := c.masterCall(ctx, "", "GetClusterStatus", &pb.GetClusterStatusRequest{Options: opts}, &resp); err != nil {
		return nil, fmt.Errorf("hbase: cluster status: %w", err)
	}
	return resp.GetClusterStatus(), nil
}

// LiveRegionServers returns the live region servers as host:port, sorted.
func (c *Client) LiveRegionServers(ctx context.Context) ([]string, error) {
	st, err := c.clusterStatus(ctx, pb.GetClusterStatusRequest_LIVE_SERVERS)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range st.GetLiveServers() {
		out = append(out, serverAddr(s.GetServer()))
	}
	sort.Strings(out)
	return out, nil
}

// ClusterVersion returns the HBase version the master runs, e.g. "2.6.1-hadoop3".
func (c *Client) ClusterVersion(ctx context.Context) (string, error) {
	st, err := c.clusterStatus(ctx, pb.GetClusterStatusRequest_HBASE_VERSION)
	if err != nil {
		return "", err
	}
	v := st.GetHbaseVersion().GetVersion()
	if v == "" {
		return "", errors.New("hbase: the master's cluster status carries no version")
	}
	return v, nil
}

// SplitRegion splits the region of table containing splitKey at splitKey and
// waits for the split procedure.
func (c *Client) SplitRegion(ctx context.Context, table string, splitKey []byte) error {
	if c.legacy {
		return fmt.Errorf("hbase: split table %q: this client splits through the master's SplitRegion procedure, which HBase 0.98 and 1.x do not have (split with the hbase shell there)", table)
	}
	r, err := c.lookupMeta(ctx, table, splitKey)
	if err != nil {
		return fmt.Errorf("hbase: split table %q at %q: %w", table, splitKey, err)
	}
	req := &pb.SplitTableRegionRequest{RegionInfo: r.pb, SplitRow: splitKey, NonceGroup: nonce(), Nonce: nonce()}
	var resp pb.SplitTableRegionResponse
	if err := c.masterCall(ctx, table, "SplitRegion", req, &resp); err != nil {
		return fmt.Errorf("hbase: split table %q at %q: %w", table, splitKey, err)
	}
	return c.waitProcedure(ctx, table, "split region of table", resp.GetProcId())
}

func compactionState(ctx context.Context, cn *conn, r *RegionInfo, timeout time.Duration) (pb.GetRegionInfoResponse_CompactionState, error) {
	var resp pb.GetRegionInfoResponse
	req := &pb.GetRegionInfoRequest{Region: regionSpec(r), CompactionState: proto.Bool(true)}
	if err := cn.invoke(ctx, "GetRegionInfo", req, &resp, timeout); err != nil {
		return 0, err
	}
	return resp.GetCompactionState(), nil
}

// regionCompactionState returns NONE, MINOR, MAJOR or MAJOR_AND_MINOR for one region.
func (c *Client) regionCompactionState(ctx context.Context, r *RegionInfo) (string, error) {
	cn, err := c.getConn(ctx, r.Server, adminService)
	if err != nil {
		return "", err
	}
	st, err := compactionState(ctx, cn, r, c.cfg.rpcTimeout)
	if err != nil {
		return "", err
	}
	return st.String(), nil
}
