package cluster

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"google.golang.org/protobuf/encoding/protowire"
)

// ReadyCheck reports whether a started cluster serves yet; it returns nil when
// ready and an error saying what is missing otherwise. The local provider polls
// its checks in order until all pass or the start timeout expires.
type ReadyCheck func(ctx context.Context, c Cluster) error

// DefaultReadyChecks returns the local provider's default checks, for callers
// that add their own (e.g. a Get on hbase:meta through a client) after them.
func DefaultReadyChecks() []ReadyCheck {
	return []ReadyCheck{ZNodesReady, MasterInitializedReady()}
}

// ZNodeParenter is implemented by clusters whose znode parent is not /hbase.
type ZNodeParenter interface {
	// ZNodeParent is the root znode of the cluster (zookeeper.znode.parent).
	ZNodeParent() string
}

// znodeParent returns c's znode parent, /hbase by default.
func znodeParent(c Cluster) string {
	if p, ok := c.(ZNodeParenter); ok && p.ZNodeParent() != "" {
		return p.ZNodeParent()
	}
	return "/hbase"
}

// ZNodesReady passes once ZooKeeper answers, the active master is published
// and the hbase:meta location znode says OPEN (the znode appears while meta is
// still OPENING, so existence alone is not enough).
func ZNodesReady(ctx context.Context, c Cluster) error {
	parent := znodeParent(c)
	return zkCheck(ctx, c.ZKAddr(), func(conn *zk.Conn) error {
		master := path.Join(parent, "master")
		ok, _, err := conn.Exists(master)
		if err != nil {
			return fmt.Errorf("ZooKeeper %s: checking %s: %w", c.ZKAddr(), master, err)
		}
		if !ok {
			return fmt.Errorf("znode %s not yet created", master)
		}
		meta := path.Join(parent, "meta-region-server")
		data, _, err := conn.Get(meta)
		if errors.Is(err, zk.ErrNoNode) {
			return fmt.Errorf("znode %s not yet created", meta)
		}
		if err != nil {
			return fmt.Errorf("ZooKeeper %s: reading %s: %w", c.ZKAddr(), meta, err)
		}
		state, err := metaState(data)
		if err != nil {
			return fmt.Errorf("znode %s: %w", meta, err)
		}
		if state != regionStateOpen {
			return fmt.Errorf("hbase:meta is in state %d, not yet OPEN", state)
		}
		return nil
	})
}

// regionStateOpen is RegionState.State.OPEN in HBase's ClusterStatus.proto.
const regionStateOpen = 3

// metaState decodes the region state from a meta-region-server znode: a 0xff
// magic byte, a 4-byte length and that many bytes of server id, "PBUF", then a
// MetaRegionServer message whose field 3 is the state. Znodes from releases
// that predate the field count as OPEN.
func metaState(data []byte) (int, error) {
	if len(data) < 5 || data[0] != 0xff {
		return 0, fmt.Errorf("unexpected znode data (%d bytes, no 0xff magic)", len(data))
	}
	idLen := int(binary.BigEndian.Uint32(data[1:5]))
	rest := data[min(5+idLen, len(data)):]
	if !bytes.HasPrefix(rest, []byte("PBUF")) {
		return 0, fmt.Errorf("unexpected znode data (no PBUF marker after a %d-byte id)", idLen)
	}
	b := rest[4:]
	state := regionStateOpen
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, fmt.Errorf("corrupt MetaRegionServer: %w", protowire.ParseError(n))
		}
		b = b[n:]
		if num == 3 && typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return 0, fmt.Errorf("corrupt MetaRegionServer state: %w", protowire.ParseError(m))
			}
			state = int(v)
			b = b[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return 0, fmt.Errorf("corrupt MetaRegionServer field %d: %w", num, protowire.ParseError(m))
		}
		b = b[m:]
	}
	return state, nil
}

// zkCheck runs check against a fresh ZooKeeper session at addr, within ctx.
func zkCheck(ctx context.Context, addr string, check func(*zk.Conn) error) error {
	// A plain dial first: go-zookeeper retries forever in the background when
	// nothing listens, which would only burn the poll's time.
	d := net.Dialer{Timeout: time.Second}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("ZooKeeper %s does not accept connections: %w", addr, err)
	}
	nc.Close()
	conn, _, err := zk.Connect([]string{addr}, 10*time.Second,
		zk.WithLogger(log.New(io.Discard, "", 0)), zk.WithLogInfo(false))
	if err != nil {
		return fmt.Errorf("connecting to ZooKeeper %s: %w", addr, err)
	}
	done := make(chan error, 1)
	go func() { done <- check(conn) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		err = fmt.Errorf("ZooKeeper %s did not answer: %w", addr, ctx.Err())
	}
	conn.Close()
	return err
}

// masterInitializedLine is what HMaster logs (1.x through 3.x) once it has
// finished initializing: before it, table DDL fails with PleaseHoldException.
const masterInitializedLine = "Master has completed initialization"

// logWatch remembers how far a log was scanned so each poll reads only new lines.
type logWatch struct {
	mu     sync.Mutex
	offset int64
	found  bool
}

// MasterInitializedReady returns a check that passes once the cluster's log
// (LogPath) shows the master finished initializing; it relies on the
// provider's own log4j2 configuration keeping HMaster's INFO messages.
func MasterInitializedReady() ReadyCheck {
	w := &logWatch{}
	return func(_ context.Context, c Cluster) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.found {
			return nil
		}
		f, err := os.Open(c.LogPath())
		if err != nil {
			return fmt.Errorf("reading HBase log: %w", err)
		}
		defer f.Close()
		if _, err := f.Seek(w.offset, 0); err != nil {
			return fmt.Errorf("reading HBase log %s: %w", c.LogPath(), err)
		}
		r := bufio.NewReader(f)
		for {
			line, err := r.ReadString('\n')
			if err != nil { // a partial last line is read again next time
				break
			}
			w.offset += int64(len(line))
			if strings.Contains(line, masterInitializedLine) {
				w.found = true
				return nil
			}
		}
		return errors.New("master has not completed initialization yet")
	}
}
