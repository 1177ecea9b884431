package hbase

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// Cell is one stored value.
type Cell struct {
	Row, Family, Qualifier, Value []byte
	Timestamp                     int64 // milliseconds since the epoch, set by the server
}

// Result is one row's cells, in the server's order (family, qualifier).
type Result struct {
	Cells []Cell
}

// Column is one qualifier and value to write.
type Column struct {
	Qualifier, Value []byte
}

// Durability is how a write is persisted (MutationProto.Durability).
type Durability int32

// Durability values, as HBase numbers them.
const (
	UseDefault Durability = iota // the table's setting
	SkipWAL                      // no write-ahead log
	AsyncWAL                     // WAL written asynchronously
	SyncWAL                      // WAL synced before acking (HBase's default)
	FsyncWAL                     // WAL fsynced before acking
)

// Mutation is one row's put for PutBatch.
type Mutation struct {
	Row    []byte
	Family []byte
	Cols   []Column
}

// ScanOptions selects the rows of a Scan.
type ScanOptions struct {
	StartRow, StopRow []byte   // StopRow is exclusive; nil = to the end of the table
	Family            []byte   // nil = all families
	Qualifiers        [][]byte // nil = whole family
	Limit             int      // maximum rows returned; 0 = no limit
	Caching           int      // rows per RPC; 0 = 256
}

// getReq is the reusable request graph of one Get, pooled so the per-op path
// allocates no protobuf request objects.
type getReq struct {
	req  pb.GetRequest
	spec pb.RegionSpecifier
	get  pb.Get
	col  pb.Column
	cols [1]*pb.Column
	resp getResult
}

var regionNameType = pb.RegionSpecifier_REGION_NAME.Enum()

var getPool = sync.Pool{New: func() any {
	g := &getReq{}
	g.spec.Type = regionNameType
	g.req.Region = &g.spec
	g.req.Get = &g.get
	g.cols[0] = &g.col
	return g
}}

// Get reads row's cells in family (all qualifiers when qualifiers is nil).
// A missing row gives an empty Result and no error.
func (c *Client) Get(ctx context.Context, table string, row []byte, family []byte, qualifiers [][]byte) (*Result, error) {
	g := getPool.Get().(*getReq)
	g.get.Row = row
	g.get.Column = nil
	if family != nil {
		g.col.Family = family
		g.col.Qualifier = qualifiers
		g.get.Column = g.cols[:]
	}
	res := &Result{}
	err := c.regionCall(ctx, "get", table, row, clientService, func(ctx context.Context, r *RegionInfo, cn *conn) error {
		g.spec.Value = r.Name
		if err := cn.invoke(ctx, "Get", &g.req, &g.resp, c.cfg.rpcTimeout); err != nil {
			return err
		}
		*res = g.resp.res
		return nil
	})
	// Drop references to caller memory before pooling.
	g.get.Row, g.col.Family, g.col.Qualifier, g.spec.Value = nil, nil, nil, nil
	g.resp.res = Result{}
	getPool.Put(g)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// mutateReq is the reusable request graph of one Put or Delete.
type mutateReq struct {
	req  pb.MutateRequest
	spec pb.RegionSpecifier
	mut  pb.MutationProto
	cv   pb.MutationProto_ColumnValue
	cvs  [1]*pb.MutationProto_ColumnValue
	qvs  []pb.MutationProto_ColumnValue_QualifierValue
	qvp  []*pb.MutationProto_ColumnValue_QualifierValue
	typ  pb.MutationProto_MutationType
	dur  pb.MutationProto_Durability
	resp pb.MutateResponse
}

var mutatePool = sync.Pool{New: func() any {
	m := &mutateReq{}
	m.spec.Type = regionNameType
	m.req.Region = &m.spec
	m.req.Mutation = &m.mut
	m.cvs[0] = &m.cv
	m.mut.MutateType = &m.typ
	m.mut.Durability = &m.dur
	return m
}}

// setColumns fills the pooled column values without allocating once the
// pooled slices are large enough.
func (m *mutateReq) setColumns(family []byte, cols []Column) {
	if cap(m.qvs) < len(cols) {
		m.qvs = make([]pb.MutationProto_ColumnValue_QualifierValue, len(cols))
		m.qvp = make([]*pb.MutationProto_ColumnValue_QualifierValue, len(cols))
	}
	m.qvs = m.qvs[:len(cols)]
	m.qvp = m.qvp[:len(cols)]
	for i := range cols {
		m.qvs[i] = pb.MutationProto_ColumnValue_QualifierValue{Qualifier: cols[i].Qualifier, Value: cols[i].Value}
		m.qvp[i] = &m.qvs[i]
	}
	m.cv.Family = family
	m.cv.QualifierValue = m.qvp
	m.mut.ColumnValue = m.cvs[:]
}

func (m *mutateReq) release() {
	for i := range m.qvs {
		m.qvs[i] = pb.MutationProto_ColumnValue_QualifierValue{}
	}
	m.cv.Family, m.cv.QualifierValue, m.mut.Row, m.mut.ColumnValue, m.spec.Value = nil, nil, nil, nil, nil
	m.resp.Reset()
	mutatePool.Put(m)
}

// Put writes cols into row's family with the given durability.
func (c *Client) Put(ctx context.Context, table string, row, family []byte, cols []Column, d Durability) error {
	if len(cols) == 0 {
		return fmt.Errorf("hbase: put to table %q row %q has no columns", table, row)
	}
	m := mutatePool.Get().(*mutateReq)
	m.mut.Row = row
	m.typ = pb.MutationProto_PUT
	m.dur = pb.MutationProto_Durability(d)
	m.setColumns(family, cols)
	err := c.regionCall(ctx, "put", table, row, clientService, func(ctx context.Context, r *RegionInfo, cn *conn) error {
		m.spec.Value = r.Name
		m.resp.Reset()
		return cn.invoke(ctx, "Mutate", &m.req, &m.resp, c.cfg.rpcTimeout)
	})
	m.release()
	return err
}

// Delete removes every cell of row.
func (c *Client) Delete(ctx context.Context, table string, row []byte) error {
	m := mutatePool.Get().(*mutateReq)
	m.mut.Row = row
	m.typ = pb.MutationProto_DELETE
	m.dur = pb.MutationProto_USE_DEFAULT
	m.mut.ColumnValue = nil
	err := c.regionCall(ctx, "delete", table, row, clientService, func(ctx context.Context, r *RegionInfo, cn *conn) error {
		m.spec.Value = r.Name
		m.resp.Reset()
		return cn.invoke(ctx, "Mutate", &m.req, &m.resp, c.cfg.rpcTimeout)
	})
	m.release()
	return err
}

// scanState carries a Scan's progress across regions and retries.
type scanState struct {
	next    []byte // first row not yet returned
	out     []Result
	limit   int
	done    bool // no more rows anywhere
	region  *RegionInfo
	regionX bool // the current region is exhausted
}

// Scan returns the rows from o.StartRow (inclusive) to o.StopRow (exclusive),
// crossing regions. A scanner the client opens is always closed, also when the
// context is cancelled or the limit is reached mid-region.
func (c *Client) Scan(ctx context.Context, table string, o ScanOptions) ([]Result, error) {
	caching := o.Caching
	if caching <= 0 {
		caching = 256
	}
	st := &scanState{next: append([]byte(nil), o.StartRow...), limit: o.Limit}
	for !st.done {
		st.regionX = false
		err := c.regionCallAt(ctx, "scan", table, &st.next, clientService, func(ctx context.Context, r *RegionInfo, cn *conn) error {
			st.region = r
			return c.scanRegion(ctx, cn, r, o, caching, st)
		})
		if err != nil {
			return st.out, err
		}
		if st.done || !st.regionX {
			break
		}
		end := st.region.EndKey
		if len(end) == 0 || (len(o.StopRow) > 0 && bytes.Compare(end, o.StopRow) >= 0) {
			break
		}
		if bytes.Compare(end, st.next) < 0 {
			// Never move backwards: that would return rows twice.
			return st.out, fmt.Errorf("hbase: scan of table %q: region %q ends at %q, before the resume row %q", table, st.region.Name, end, st.next)
		}
		st.next = append(st.next[:0:0], end...)
	}
	return st.out, nil
}

// scanRegion scans one region from st.next, appending rows to st.out.
func (c *Client) scanRegion(ctx context.Context, cn *conn, r *RegionInfo, o ScanOptions, caching int, st *scanState) error {
	scan := &pb.Scan{StartRow: st.next, StopRow: o.StopRow}
	if o.Family != nil {
		scan.Column = []*pb.Column{{Family: o.Family, Qualifier: o.Qualifiers}}
	}
	rows := uint32(caching)
	if st.limit > 0 && st.limit-len(st.out) < caching {
		rows = uint32(st.limit - len(st.out))
	}
	scan.Caching = proto.Uint32(rows)
	req := &pb.ScanRequest{Region: regionSpec(r), Scan: scan, NumberOfRows: proto.Uint32(rows)}
	if st.limit > 0 {
		req.LimitOfRows = proto.Uint32(uint32(st.limit - len(st.out)))
	}
	var scannerID uint64
	open := false
	var seq uint64
	for {
		var resp scanResult
		if err := cn.invoke(ctx, "Scan", req, &resp, c.cfg.rpcTimeout); err != nil {
			if open {
				c.closeScanner(cn, r, scannerID)
			}
			return err
		}
		if resp.hasScannerID {
			scannerID = resp.scannerID
			open = true
		}
		for _, res := range resp.results {
			if len(res.Cells) == 0 {
				continue
			}
			st.out = append(st.out, res)
			// Resume after this row if the region fails mid-scan.
			last := res.Cells[0].Row
			st.next = append(append(st.next[:0:0], last...), 0)
		}
		more, moreInRegion := resp.moreResults, resp.moreResultsInRegn
		if st.limit > 0 && len(st.out) >= st.limit {
			st.out = st.out[:st.limit]
			st.done = true
			if more && moreInRegion && open {
				c.closeScanner(cn, r, scannerID)
			}
			return nil
		}
		if !more {
			st.done = true
			return nil
		}
		if !resp.saidInRegion && len(resp.results) == 0 {
			// A 0.98 or 1.0 server says neither more_results_in_region nor
			// more_results=false at a region's end: it answers with no rows
			// and keeps the scanner open, and its own client moves on to
			// the next region after closing it.
			if open {
				c.closeScanner(cn, r, scannerID)
			}
			st.regionX = true
			return nil
		}
		if !moreInRegion {
			st.regionX = true
			return nil
		}
		if !open {
			return fmt.Errorf("hbase: scan of region %q returned more results but no scanner id", r.Name)
		}
		if err := ctx.Err(); err != nil {
			c.closeScanner(cn, r, scannerID)
			return err
		}
		req = &pb.ScanRequest{ScannerId: proto.Uint64(scannerID), NumberOfRows: proto.Uint32(rows), NextCallSeq: proto.Uint64(seq)}
		seq++
	}
}

// closeScanner releases a server-side scanner. It runs on its own short
// context so a cancelled caller still frees the server's resources.
func (c *Client) closeScanner(cn *conn, r *RegionInfo, id uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := &pb.ScanRequest{ScannerId: proto.Uint64(id), NumberOfRows: proto.Uint32(0), CloseScanner: proto.Bool(true)}
	var resp pb.ScanResponse
	if err := cn.invoke(ctx, "Scan", req, &resp, 5*time.Second); err != nil {
		// Not fatal: the server expires the scanner's lease on its own
		// (hbase.client.scanner.timeout.period).
		slog.Debug("hbase: close scanner failed", "region", string(r.Name), "scanner", id, "err", err)
	}
}
