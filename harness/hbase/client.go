// Package hbase is a native Go client for Apache HBase (0.96 and newer): it
// speaks HBase's protobuf RPC directly, finds regions through ZooKeeper and
// hbase:meta, and offers the data and admin operations the harness measures
// and prepares clusters with.
package hbase

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// Option configures a Client.
type Option func(*config)

type config struct {
	znodeParent string
	rpcTimeout  time.Duration
	maxRetries  int
	pause       time.Duration
	zkWait      zkWait
	infoPort    int
}

// DefaultZNodeParent is HBase's default base znode (zookeeper.znode.parent).
const DefaultZNodeParent = "/hbase"

// WithZNodeParent sets HBase's base znode (zookeeper.znode.parent), default DefaultZNodeParent.
func WithZNodeParent(p string) Option { return func(c *config) { c.znodeParent = p } }

// WithZKWait bounds each wait for ZooKeeper to answer (default
// ZKAnswerTimeout) and, when notice is set, has it say what it waits for
// after a few seconds instead of waiting silently.
func WithZKWait(timeout time.Duration, notice func(msg string)) Option {
	return func(c *config) { c.zkWait = zkWait{timeout: timeout, notice: notice} }
}

// WithRPCTimeout bounds each RPC (default 60s); the context's deadline also applies.
func WithRPCTimeout(d time.Duration) Option { return func(c *config) { c.rpcTimeout = d } }

// WithInfoPort has InfoServers place every region server's info server at
// its host and this port, whatever its znode says (ParseInfoPort checks it).
func WithInfoPort(port int) Option { return func(c *config) { c.infoPort = port } }

// WithMaxRetries bounds retries of an operation on retriable errors (default 15).
func WithMaxRetries(n int) Option { return func(c *config) { c.maxRetries = n } }

// Client is a connection to one HBase cluster, safe for concurrent use.
type Client struct {
	zkAddr string
	cfg    config
	user   string
	cache  *regionCache

	mu     sync.Mutex
	conns  map[connKey]*connSlot
	meta   string // host:port of hbase:meta's server, "" = ask ZooKeeper
	master string // host:port of the active master, "" = ask ZooKeeper
	closed bool

	// legacy is set for a 0.98 or 1.x master, which lacks GetTableState and
	// clones snapshots without procedures; pre1 for a 0.98 master.
	legacy, pre1 bool

	relocations atomic.Int64 // stale region locations dropped; tests check the path ran

	lookupMu sync.Mutex
	lookups  map[string]chan struct{} // per table: one meta lookup at a time (a 1-slot semaphore that honours ctx)
}

type connKey struct {
	addr    string
	service string
}

// connSlot lets one goroutine dial while others for the same key wait.
type connSlot struct {
	ready chan struct{}
	c     *conn
	err   error
}

// Connect reads the cluster's master and meta locations from the ZooKeeper at
// zkAddr (host:port) and checks the master answers. The context bounds the
// connection attempt only.
func Connect(ctx context.Context, zkAddr string, opts ...Option) (*Client, error) {
	cfg := config{znodeParent: DefaultZNodeParent, rpcTimeout: 60 * time.Second, maxRetries: 15, pause: 100 * time.Millisecond}
	for _, o := range opts {
		o(&cfg)
	}
	if zkAddr == "" {
		return nil, errors.New("hbase: empty ZooKeeper address (want host:port)")
	}
	c := &Client{
		zkAddr:  zkAddr,
		cfg:     cfg,
		user:    currentUser(),
		cache:   newRegionCache(),
		conns:   make(map[connKey]*connSlot),
		lookups: make(map[string]chan struct{}),
	}
	if err := c.refreshLocations(ctx); err != nil {
		return nil, err
	}
	var resp pb.IsMasterRunningResponse
	if err := c.masterCall(ctx, "", "IsMasterRunning", &pb.IsMasterRunningRequest{}, &resp); err != nil {
		c.Close()
		return nil, fmt.Errorf("hbase: master at %s (from ZooKeeper %s) does not answer: %w", c.masterAddr(), zkAddr, err)
	}
	if !resp.GetIsMasterRunning() {
		c.Close()
		return nil, fmt.Errorf("hbase: master at %s says it is not running", c.masterAddr())
	}
	// The admin calls differ before 2.0; an unknown answer means a modern master.
	if v, err := c.ClusterVersion(ctx); err == nil {
		c.pre1 = strings.HasPrefix(v, "0.")
		c.legacy = c.pre1 || strings.HasPrefix(v, "1.")
	}
	return c, nil
}

func currentUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "regress"
}

// Close closes every connection. Calls in flight fail.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	conns := c.conns
	c.conns = make(map[connKey]*connSlot)
	c.mu.Unlock()
	for _, s := range conns {
		<-s.ready
		if s.c != nil {
			s.c.close()
		}
	}
	return nil
}

// refreshLocations reads the master and meta znodes.
func (c *Client) refreshLocations(ctx context.Context) error {
	data, err := readZNodes(ctx, c.zkAddr, c.cfg.znodeParent, c.cfg.zkWait, "master", "meta-region-server")
	if err != nil {
		return fmt.Errorf("hbase: locate cluster: %w", err)
	}
	master, err := parseMasterZNode(data[0])
	if err != nil {
		return fmt.Errorf("hbase: %s/master: %w", c.cfg.znodeParent, err)
	}
	meta, err := parseMetaZNode(data[1])
	if err != nil {
		return fmt.Errorf("hbase: %s/meta-region-server: %w", c.cfg.znodeParent, err)
	}
	c.mu.Lock()
	c.master, c.meta = master, meta
	c.mu.Unlock()
	return nil
}

// MasterAddr returns host:port of the active master, as ZooKeeper last named it.
func (c *Client) MasterAddr() string { return c.masterAddr() }

func (c *Client) masterAddr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.master
}

func (c *Client) metaAddr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.meta
}

// getConn returns a live connection to service on addr, dialling if needed.
func (c *Client) getConn(ctx context.Context, addr, service string) (*conn, error) {
	k := connKey{addr, service}
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, errors.New("hbase: client is closed")
		}
		s := c.conns[k]
		if s == nil {
			s = &connSlot{ready: make(chan struct{})}
			c.conns[k] = s
			c.mu.Unlock()
			dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			s.c, s.err = dialConn(dctx, addr, service, c.user)
			cancel()
			close(s.ready)
			if s.err != nil {
				c.dropSlot(k, s)
				return nil, s.err
			}
			return s.c, nil
		}
		c.mu.Unlock()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if s.err == nil && s.c.alive() {
			return s.c, nil
		}
		c.dropSlot(k, s)
		if s.err != nil {
			return nil, s.err
		}
	}
}

func (c *Client) dropSlot(k connKey, s *connSlot) {
	c.mu.Lock()
	if c.conns[k] == s {
		delete(c.conns, k)
	}
	c.mu.Unlock()
}

// backoff sleeps before retry attempt n, or returns the context's error.
func (c *Client) backoff(ctx context.Context, n int) error {
	// Java's HConstants.RETRY_BACKOFF multipliers, capped so a benchmark or
	// test hears about a dead cluster within a minute or so.
	mult := [...]int{1, 2, 3, 5, 10, 20, 40, 100}
	m := mult[len(mult)-1]
	if n < len(mult) {
		m = mult[n]
	}
	d := c.cfg.pause * time.Duration(m)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// masterCall runs one MasterService call with retries; it re-reads the master
// location from ZooKeeper when the connection fails.
// table (may be empty) names the table in typed errors.
func (c *Client) masterCall(ctx context.Context, table, method string, req, resp proto.Message) error {
	var err error
	for attempt := 0; ; attempt++ {
		addr := c.masterAddr()
		var cn *conn
		cn, err = c.getConn(ctx, addr, masterService)
		if err == nil {
			err = cn.invoke(ctx, method, req, resp, c.cfg.rpcTimeout)
		}
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("hbase: master %s %s: %w", addr, method, err)
		}
		k := classify(err)
		if k == retryNever {
			var re *RemoteError
			if errors.As(err, &re) {
				if re.Table == "" {
					re.Table = table
				}
				return mapRemote(re)
			}
			return err
		}
		if attempt >= c.cfg.maxRetries {
			return &RetriesExhaustedError{Op: method, Table: table, Attempts: attempt + 1, Err: err}
		}
		if k == retryReconnect {
			if zerr := c.refreshLocations(ctx); zerr != nil {
				err = errors.Join(err, zerr)
			}
		}
		if berr := c.backoff(ctx, attempt); berr != nil {
			return fmt.Errorf("hbase: master %s %s: %w (last error: %v)", addr, method, berr, err)
		}
	}
}

// locate returns the region of table holding row, from the cache or hbase:meta.
func (c *Client) locate(ctx context.Context, table string, row []byte) (*RegionInfo, error) {
	if r := c.cache.find(table, row); r != nil {
		return r, nil
	}
	if table == metaTable {
		return &RegionInfo{Table: metaTable, Name: metaRegionName, Server: c.metaAddr()}, nil
	}
	// Hundreds of goroutines missing the same region at once (a new table, a
	// split) would each scan hbase:meta; serialize per table and re-check the
	// cache so the first lookup serves the rest.
	c.lookupMu.Lock()
	sem := c.lookups[table]
	if sem == nil {
		sem = make(chan struct{}, 1)
		c.lookups[table] = sem
	}
	c.lookupMu.Unlock()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("hbase: waiting to look up table %q row %q in hbase:meta: %w", table, row, ctx.Err())
	}
	defer func() { <-sem }()
	if r := c.cache.find(table, row); r != nil {
		return r, nil
	}
	r, err := c.lookupMeta(ctx, table, row)
	if err != nil {
		return nil, err
	}
	c.cache.add(r)
	return r, nil
}

// lookupMeta finds row's region with a reversed scan of hbase:meta from
// "<table>,<row>,99999999999999": the first usable row at or before it.
func (c *Client) lookupMeta(ctx context.Context, table string, row []byte) (*RegionInfo, error) {
	req := &pb.ScanRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: metaRegionName},
		Scan: &pb.Scan{
			Column:   []*pb.Column{{Family: infoFamily}},
			StartRow: metaRowFor(table, row),
			StopRow:  append([]byte(table), ',', ','), // meta compares by parts: the table's lowest row
			Reversed: proto.Bool(true),
			Caching:  proto.Uint32(metaLookupRows),
		},
		NumberOfRows: proto.Uint32(metaLookupRows),
		CloseScanner: proto.Bool(true),
	}
	var err error
	for attempt := 0; ; attempt++ {
		var resp pb.ScanResponse
		addr := c.metaAddr()
		var cn *conn
		cn, err = c.getConn(ctx, addr, clientService)
		if err == nil {
			err = cn.invoke(ctx, "Scan", req, &resp, c.cfg.rpcTimeout)
		}
		if err == nil {
			var ri *RegionInfo
			ri, err = regionFromMeta(&resp, table, row)
			if err == nil {
				return ri, nil
			}
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("hbase: look up region of table %q row %q in hbase:meta at %s: %w", table, row, addr, ctx.Err())
		}
		k := classify(err)
		if k == retryNever {
			return nil, err
		}
		if attempt >= c.cfg.maxRetries {
			return nil, &RetriesExhaustedError{Op: "meta lookup", Table: table, Row: row, Attempts: attempt + 1, Err: err}
		}
		if k == retryReconnect || k == retryRelocate {
			if zerr := c.refreshLocations(ctx); zerr != nil {
				err = errors.Join(err, zerr)
			}
		}
		if berr := c.backoff(ctx, attempt); berr != nil {
			return nil, fmt.Errorf("hbase: look up region of table %q row %q: %w (last error: %v)", table, row, berr, err)
		}
	}
}

// regionFromMeta picks row's region from a reversed meta scan response.
func regionFromMeta(resp *pb.ScanResponse, table string, row []byte) (*RegionInfo, error) {
	for _, r := range resp.GetResults() {
		ri, ok, err := parseMetaRow(decodeResult(r))
		if err != nil {
			return nil, err
		}
		if ri == nil {
			continue
		}
		if ri.Table != table {
			break
		}
		if !ok {
			continue // split parent or offline: its daughters are the live rows
		}
		if !ri.contains(row) {
			// A hole: the region covering row is not in meta yet (split or create in progress).
			return nil, fmt.Errorf("hbase: no region of table %q covers row %q yet: %w", table, row, errRegionOffline)
		}
		if ri.Server == "" {
			return nil, fmt.Errorf("hbase: region %q of table %q: %w", ri.Name, table, errRegionOffline)
		}
		return ri, nil
	}
	return nil, &TableNotFoundError{Table: table}
}

// regionCall runs fn against the region of table holding row, relocating and
// backing off on retriable errors. fn gets the region and a ClientService (or
// AdminService when service says so) connection to its server.
func (c *Client) regionCall(ctx context.Context, op, table string, row []byte, service string,
	fn func(ctx context.Context, r *RegionInfo, cn *conn) error) error {
	return c.regionCallAt(ctx, op, table, &row, service, fn)
}

// regionCallAt is regionCall for a row fn may advance between attempts (a
// scan resuming after its last returned row): every attempt locates *rowp.
func (c *Client) regionCallAt(ctx context.Context, op, table string, rowp *[]byte, service string,
	fn func(ctx context.Context, r *RegionInfo, cn *conn) error) error {
	var err error
	for attempt := 0; ; attempt++ {
		// A call that may not start must not race its own answer: once a
		// request is on the wire, a fast response and the done context are
		// both ready and select picks either.
		if err := ctx.Err(); err != nil {
			return err
		}
		row := *rowp
		var r *RegionInfo
		r, err = c.locate(ctx, table, row)
		if err == nil {
			var cn *conn
			cn, err = c.getConn(ctx, r.Server, service)
			if err == nil {
				err = fn(ctx, r, cn)
			}
		}
		if err == nil {
			return nil
		}
		var re *RemoteError
		if errors.As(err, &re) && re.Table == "" {
			re.Table, re.Row = table, row
		}
		if ctx.Err() != nil {
			return fmt.Errorf("hbase: %s table %q row %q: %w", op, table, row, err)
		}
		k := classify(err)
		if k == retryNever {
			if re != nil {
				return mapRemote(re)
			}
			return err
		}
		if attempt >= c.cfg.maxRetries {
			return &RetriesExhaustedError{Op: op, Table: table, Row: row, Attempts: attempt + 1, Err: err}
		}
		if attempt >= 1 && table != metaTable && (k == retryRelocate || errors.Is(err, errRegionOffline)) {
			// Regions that stay unreachable may belong to a disabled or
			// deleted table; the master knows, and retrying cannot help then.
			if serr := c.checkTableServes(ctx, table); serr != nil {
				return serr
			}
		}
		if table == metaTable && k != retryBackoff {
			if zerr := c.refreshLocations(ctx); zerr != nil {
				err = errors.Join(err, zerr)
			}
		}
		switch k {
		case retryRelocate:
			c.relocations.Add(1)
			slog.Debug("hbase: dropping stale region location", "op", op, "table", table, "row", string(row), "err", err)
			if r != nil {
				c.cache.remove(r)
			}
		case retryReconnect:
			if r != nil {
				c.cache.removeServer(r.Server)
			}
		}
		if k != retryRelocate || attempt > 0 {
			if berr := c.backoff(ctx, attempt); berr != nil {
				return fmt.Errorf("hbase: %s table %q row %q: %w (last error: %v)", op, table, row, berr, err)
			}
		}
	}
}

func regionSpec(r *RegionInfo) *pb.RegionSpecifier {
	return &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: r.Name}
}

// checkTableServes returns a typed error when table is disabled or gone.
func (c *Client) checkTableServes(ctx context.Context, table string) error {
	st, err := c.TableState(ctx, table)
	var nf *TableNotFoundError
	switch {
	case errors.As(err, &nf):
		c.cache.removeTable(table)
		return nf
	case err != nil:
		return nil // the master is unsure: keep retrying the region
	case st == "DISABLED" || st == "DISABLING":
		c.cache.removeTable(table)
		return &TableStateError{Table: table, Want: "ENABLED"}
	}
	return nil
}
