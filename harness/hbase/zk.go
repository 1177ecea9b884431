package hbase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// pbMagic prefixes protobuf payloads HBase stores in znodes and meta cells.
var pbMagic = []byte("PBUF")

// parseZNode strips the znode envelope (0xFF, int32 id length, id, "PBUF")
// and returns the protobuf payload.
func parseZNode(data []byte) ([]byte, error) {
	if len(data) < 5 || data[0] != 0xFF {
		return nil, fmt.Errorf("znode data does not start with the 0xFF marker (%d bytes)", len(data))
	}
	idLen := binary.BigEndian.Uint32(data[1:5])
	if idLen > uint32(len(data)-5) {
		return nil, fmt.Errorf("znode id length %d exceeds data of %d bytes", idLen, len(data))
	}
	rest := data[5+idLen:]
	if !bytes.HasPrefix(rest, pbMagic) {
		return nil, errors.New("znode payload lacks the PBUF magic (is this HBase 0.96 or newer?)")
	}
	return rest[len(pbMagic):], nil
}

// serverAddr formats a ServerName as host:port.
func serverAddr(s *pb.ServerName) string {
	return net.JoinHostPort(s.GetHostName(), strconv.Itoa(int(s.GetPort())))
}

// parseMasterZNode returns host:port of the active master.
func parseMasterZNode(data []byte) (string, error) {
	b, err := parseZNode(data)
	if err != nil {
		return "", err
	}
	var m pb.Master
	if err := proto.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("decode master znode: %w", err)
	}
	if m.GetMaster().GetHostName() == "" {
		return "", errors.New("master znode names no server")
	}
	return serverAddr(m.GetMaster()), nil
}

// parseMetaZNode returns host:port of the server holding hbase:meta.
func parseMetaZNode(data []byte) (string, error) {
	b, err := parseZNode(data)
	if err != nil {
		return "", err
	}
	var m pb.MetaRegionServer
	if err := proto.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("decode meta-region-server znode: %w", err)
	}
	if m.GetServer().GetHostName() == "" {
		return "", errors.New("meta-region-server znode names no server")
	}
	return serverAddr(m.GetServer()), nil
}

// zkLogger sends go-zookeeper's chatter (a line per failed dial) to slog at
// debug level instead of the standard logger.
type zkLogger struct{}

// Printf logs one go-zookeeper message.
func (zkLogger) Printf(format string, args ...any) {
	slog.Debug("zookeeper: " + fmt.Sprintf(format, args...))
}

// ZKAnswerTimeout bounds the wait for ZooKeeper to answer a read. A server
// that accepts the connection but never answers (not a ZooKeeper, or one
// that is stuck) would otherwise hold the caller until its own deadline,
// silently: go-zookeeper retries it forever.
const ZKAnswerTimeout = 10 * time.Second

// zkNoticeAfter is when a wait for ZooKeeper says what it waits for.
const zkNoticeAfter = 3 * time.Second

// zkWait is how a read of znodes waits: at most timeout, saying so through
// notice (when set) once it has waited zkNoticeAfter.
type zkWait struct {
	timeout time.Duration
	notice  func(string)
}

// readZNodes reads the given znodes under parent and returns their data in
// order. go-zookeeper retries a dead server forever, so the session is bounded
// by ctx and w.timeout and always closed before returning.
func readZNodes(ctx context.Context, zkAddr, parent string, w zkWait, names ...string) ([][]byte, error) {
	// A quorum is host:port[,host:port...]; go-zookeeper takes the servers one by one.
	conn, _, err := zk.Connect(zk.FormatServers(strings.Split(zkAddr, ",")), 30*time.Second, zk.WithLogger(zkLogger{}), zk.WithLogInfo(false))
	if err != nil {
		return nil, fmt.Errorf("zookeeper %s: %w", zkAddr, err)
	}
	type res struct {
		out [][]byte
		err error
	}
	ch := make(chan res, 1)
	go func() {
		var r res
		for _, n := range names {
			p := parent + "/" + n
			data, _, err := conn.Get(p)
			if err != nil {
				if errors.Is(err, zk.ErrNoNode) {
					err = noZNodeError(fmt.Sprintf("znode %s does not exist (is HBase running, and is the znode parent %q right?)", p, parent))
				} else {
					err = fmt.Errorf("read znode %s: %w", p, err)
				}
				r.err = err
				break
			}
			r.out = append(r.out, data)
		}
		ch <- r
	}()
	if w.timeout <= 0 {
		w.timeout = ZKAnswerTimeout
	}
	notice := time.NewTimer(min(zkNoticeAfter, w.timeout/2))
	defer notice.Stop()
	deadline := time.NewTimer(w.timeout)
	defer deadline.Stop()
	for {
		select {
		case r := <-ch:
			conn.Close()
			if r.err != nil {
				return nil, fmt.Errorf("zookeeper %s: %w", zkAddr, r.err)
			}
			return r.out, nil
		case <-notice.C:
			if w.notice != nil {
				w.notice(fmt.Sprintf("waiting for ZooKeeper %s to answer (reading %s/%s); giving up after %v", zkAddr, parent, strings.Join(names, ", "), w.timeout))
			}
		case <-deadline.C:
			conn.Close() // unblocks the Get in the goroutine
			return nil, fmt.Errorf("zookeeper %s did not answer within %v (is the address right, is a ZooKeeper listening there, and is HBase up? `regress doctor --zk %s` checks it)", zkAddr, w.timeout, zkAddr)
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("zookeeper %s did not answer (is the address right and HBase up?): %w", zkAddr, ctx.Err())
		}
	}
}

// errNoZNode marks a znode that does not exist (errors.Is).
var errNoZNode = errors.New("znode does not exist")

// noZNodeError is a missing znode, said for people.
type noZNodeError string

func (e noZNodeError) Error() string        { return string(e) }
func (e noZNodeError) Is(target error) bool { return target == errNoZNode }

// legacyTableStates are ZooKeeperProtos.Table.State of HBase 1.x, in enum order.
var legacyTableStates = []string{"ENABLED", "DISABLED", "DISABLING", "ENABLING"}

// parseTableZNode decodes a 1.x table state znode (<parent>/table/<name>).
func parseTableZNode(data []byte) (string, error) {
	var b []byte
	switch {
	case len(data) > 0 && data[0] == 0xFF:
		p, err := parseZNode(data)
		if err != nil {
			return "", err
		}
		b = p
	case bytes.HasPrefix(data, pbMagic):
		b = data[len(pbMagic):]
	default:
		return "", fmt.Errorf("table znode data (%d bytes) lacks the PBUF magic", len(data))
	}
	state := 0 // proto default: ENABLED
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", fmt.Errorf("corrupt table znode: %w", protowire.ParseError(n))
		}
		b = b[n:]
		if num == 1 && typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return "", fmt.Errorf("corrupt table znode state: %w", protowire.ParseError(m))
			}
			state, b = int(v), b[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return "", fmt.Errorf("corrupt table znode field %d: %w", num, protowire.ParseError(m))
		}
		b = b[m:]
	}
	if state < 0 || state >= len(legacyTableStates) {
		return "", fmt.Errorf("table znode has unknown state %d", state)
	}
	return legacyTableStates[state], nil
}

// legacyTableState reads a table's state the way 1.x clients do: from its
// znode, since 1.x masters have no GetTableState.
func (c *Client) legacyTableState(ctx context.Context, table string) (string, error) {
	datas, err := readZNodes(ctx, c.zkAddr, c.cfg.znodeParent+"/table", c.cfg.zkWait, table)
	if err != nil {
		if errors.Is(err, errNoZNode) {
			return "", fmt.Errorf("hbase: state of table %q: %w", table, &TableNotFoundError{Table: table})
		}
		return "", fmt.Errorf("hbase: state of table %q: %w", table, err)
	}
	st, err := parseTableZNode(datas[0])
	if err != nil {
		return "", fmt.Errorf("hbase: state of table %q: %w", table, err)
	}
	return st, nil
}
