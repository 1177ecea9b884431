package hbase

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// PutBatch writes ms with one Multi call per region server per round;
// actions that fail with retriable errors are retried after relocating.
// A round locates the pending rows, builds one request per server, and
// applies them concurrently; what failed retriably is the next round.
func (c *Client) PutBatch(ctx context.Context, table string, ms []Mutation, d Durability) error {
	if len(ms) == 0 {
		return nil
	}
	b := &batch{c: c, table: table, ms: ms, dur: pb.MutationProto_Durability(d)}
	pending := make([]int, len(ms))
	for i := range pending {
		pending[i] = i
	}
	for attempt := 0; len(pending) > 0; attempt++ {
		if attempt > c.cfg.maxRetries {
			return &RetriesExhaustedError{Op: "put batch", Table: table, Row: ms[pending[0]].Row, Attempts: attempt, Err: b.lastErr}
		}
		if attempt > 0 {
			if err := c.backoff(ctx, attempt-1); err != nil {
				return fmt.Errorf("hbase: put batch to table %q: %w (last error: %v)", table, err, b.lastErr)
			}
		}
		byServer, err := b.locate(ctx, pending)
		if err != nil {
			return err
		}
		if err := b.apply(ctx, byServer); err != nil {
			return fmt.Errorf("hbase: put batch to table %q: %w", table, err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("hbase: put batch to table %q: %w", table, err)
		}
		pending, b.failed = b.failed, nil
	}
	return nil
}

// batch is one PutBatch call's state across its rounds.
type batch struct {
	c     *Client
	table string
	ms    []Mutation
	dur   pb.MutationProto_Durability

	mu      sync.Mutex // guards failed and lastErr while a round's requests run
	failed  []int      // indexes into ms to retry next round
	lastErr error
}

// regionGroup is the rows of one region within a round.
type regionGroup struct {
	r   *RegionInfo
	idx []int
}

// locate groups the pending rows by server, each server's regions in key
// order; a row whose region cannot be found now is retried next round.
func (b *batch) locate(ctx context.Context, pending []int) (map[string][]*regionGroup, error) {
	byRegion := map[string]*regionGroup{}
	for _, i := range pending {
		r, err := b.c.locate(ctx, b.table, b.ms[i].Row)
		if err != nil {
			if classify(err) == retryNever {
				return nil, err
			}
			b.lastErr = err
			b.failed = append(b.failed, i)
			continue
		}
		g := byRegion[string(r.Name)]
		if g == nil {
			g = &regionGroup{r: r}
			byRegion[string(r.Name)] = g
		}
		g.idx = append(g.idx, i)
	}
	byServer := map[string][]*regionGroup{}
	for _, g := range byRegion {
		byServer[g.r.Server] = append(byServer[g.r.Server], g)
	}
	for _, gs := range byServer {
		sort.Slice(gs, func(a, b int) bool { return bytes.Compare(gs[a].r.StartKey, gs[b].r.StartKey) < 0 })
	}
	return byServer, nil
}

// build makes one server's Multi request: a RegionAction per region, an
// Action per row, indexed by the row's place in its group.
func (b *batch) build(groups []*regionGroup) *pb.MultiRequest {
	req := &pb.MultiRequest{}
	for _, g := range groups {
		ra := &pb.RegionAction{Region: regionSpec(g.r)}
		for k, i := range g.idx {
			m := b.ms[i]
			qvs := make([]*pb.MutationProto_ColumnValue_QualifierValue, len(m.Cols))
			for j, col := range m.Cols {
				qvs[j] = &pb.MutationProto_ColumnValue_QualifierValue{Qualifier: col.Qualifier, Value: col.Value}
			}
			ra.Action = append(ra.Action, &pb.Action{
				Index: proto.Uint32(uint32(k)),
				Mutation: &pb.MutationProto{
					Row:         m.Row,
					MutateType:  pb.MutationProto_PUT.Enum(),
					ColumnValue: []*pb.MutationProto_ColumnValue{{Family: m.Family, QualifierValue: qvs}},
					Durability:  b.dur.Enum(),
				},
			})
		}
		req.RegionAction = append(req.RegionAction, ra)
	}
	return req
}

// apply sends every server's request concurrently and sorts what came back:
// rows to retry go to failed, and the first error no retry can cure is returned.
func (b *batch) apply(ctx context.Context, byServer map[string][]*regionGroup) error {
	var wg sync.WaitGroup
	var final error
	for server, groups := range byServer {
		req := b.build(groups)
		wg.Go(func() {
			var resp pb.MultiResponse
			cn, err := b.c.getConn(ctx, server, clientService)
			if err == nil {
				err = cn.invoke(ctx, "Multi", req, &resp, b.c.cfg.rpcTimeout)
			}
			b.mu.Lock()
			defer b.mu.Unlock()
			if err == nil {
				err = b.collect(server, groups, &resp)
			} else {
				err = b.requestFailed(ctx, server, groups, err)
			}
			if err != nil && final == nil {
				final = err
			}
		})
	}
	wg.Wait()
	return final
}

// requestFailed handles a whole request's failure (b.mu held): every row of
// it is retried, after dropping the locations the error says are stale.
func (b *batch) requestFailed(ctx context.Context, server string, groups []*regionGroup, err error) error {
	k := classify(err)
	if k == retryNever || ctx.Err() != nil {
		return err
	}
	b.lastErr = err
	if k == retryReconnect {
		b.c.cache.removeServer(server)
	}
	for _, g := range groups {
		if k == retryRelocate {
			b.c.cache.remove(g.r)
		}
		b.failed = append(b.failed, g.idx...)
	}
	return nil
}

// retry queues rows of g again after a retriable exception re, dropping the
// region's location when re says it moved; another exception is returned.
func (b *batch) retry(re *RemoteError, g *regionGroup, rows ...int) error {
	switch classify(re) {
	case retryNever:
		return mapRemote(re)
	case retryRelocate:
		b.c.cache.remove(g.r)
	}
	b.lastErr = re
	b.failed = append(b.failed, rows...)
	return nil
}

// collect reads one server's Multi response (b.mu held): a region's or a
// row's retriable exception queues it again; another ends the batch.
func (b *batch) collect(server string, groups []*regionGroup, resp *pb.MultiResponse) error {
	results := resp.GetRegionActionResult()
	remote := func(name string, value []byte, row []byte) *RemoteError {
		return &RemoteError{Class: name, Message: firstLine(string(value)), Server: server, Table: b.table, Row: row}
	}
	for n, g := range groups {
		if n >= len(results) {
			b.failed = append(b.failed, g.idx...)
			b.lastErr = fmt.Errorf("hbase: Multi response from %s lacks region %q", server, g.r.Name)
			continue
		}
		rar := results[n]
		if ex := rar.GetException(); ex != nil {
			if err := b.retry(remote(ex.GetName(), ex.GetValue(), b.ms[g.idx[0]].Row), g, g.idx...); err != nil {
				return err
			}
			continue
		}
		for _, roe := range rar.GetResultOrException() {
			ex := roe.GetException()
			k := int(roe.GetIndex())
			if ex == nil || k >= len(g.idx) {
				continue
			}
			if err := b.retry(remote(ex.GetName(), ex.GetValue(), b.ms[g.idx[k]].Row), g, g.idx[k]); err != nil {
				return err
			}
		}
	}
	return nil
}
