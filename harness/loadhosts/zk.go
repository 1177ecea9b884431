package loadhosts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// sessionTimeout is how long ZooKeeper keeps a silent host's session: a
// killed worker's znode (and with it its place in a trial) goes after this.
const sessionTimeout = 6 * time.Second

// chunkSize bounds one znode's data below ZooKeeper's 1 MB default limit.
const chunkSize = 512 << 10

var acl = zk.WorldACL(zk.PermAll)

type zkLog struct{ log *slog.Logger }

func (l zkLog) Printf(format string, args ...any) {
	l.log.Debug("zookeeper: " + fmt.Sprintf(format, args...))
}

// DefaultConnectTimeout bounds the wait for ZooKeeper to answer when a
// worker or a run's coordinator connects: go-zookeeper retries an unreachable
// quorum forever.
const DefaultConnectTimeout = 30 * time.Second

// servers splits a quorum list (host:port[,host:port...]) for go-zookeeper.
func servers(addr string) []string {
	var out []string
	for _, s := range strings.Split(addr, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return zk.FormatServers(out)
}

// dial opens a ZooKeeper session and waits until it is established, at most
// timeout (0: DefaultConnectTimeout) or until ctx ends.
func dial(ctx context.Context, addr string, timeout time.Duration, log *slog.Logger) (*zk.Conn, <-chan zk.Event, error) {
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	conn, events, err := zk.Connect(servers(addr), sessionTimeout, zk.WithLogger(zkLog{log}), zk.WithLogInfo(false))
	if err != nil {
		return nil, nil, fmt.Errorf("zookeeper %s: %w", addr, err)
	}
	expired := time.NewTimer(timeout)
	defer expired.Stop()
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				return conn, events, nil
			}
		case <-expired.C:
			conn.Close()
			return nil, nil, fmt.Errorf("zookeeper %s did not answer within %v: is the address right (host:port[,host:port...]) and the cluster up?", addr, timeout)
		case <-ctx.Done():
			conn.Close()
			return nil, nil, fmt.Errorf("interrupted while connecting to zookeeper %s: %w", addr, ctx.Err())
		}
	}
}

// ensure creates p and its parents as persistent znodes when missing.
func ensure(conn *zk.Conn, p string) error {
	if p == "/" || p == "" {
		return nil
	}
	if ok, _, err := conn.Exists(p); err != nil {
		return fmt.Errorf("znode %s: %w", p, err)
	} else if ok {
		return nil
	}
	if err := ensure(conn, path.Dir(p)); err != nil {
		return err
	}
	if _, err := conn.Create(p, nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		return fmt.Errorf("create znode %s: %w", p, err)
	}
	return nil
}

// deleteTree deletes p and everything below it; a znode already gone is fine,
// and children created meanwhile (a host still writing) are deleted too.
func deleteTree(conn *zk.Conn, p string) error {
	var err error
	for range 5 {
		var kids []string
		kids, _, err = conn.Children(p)
		if errors.Is(err, zk.ErrNoNode) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list znode %s: %w", p, err)
		}
		for _, k := range kids {
			if err := deleteTree(conn, path.Join(p, k)); err != nil {
				return err
			}
		}
		err = conn.Delete(p, -1)
		if err == nil || errors.Is(err, zk.ErrNoNode) {
			return nil
		}
		if !errors.Is(err, zk.ErrNotEmpty) {
			break
		}
	}
	return fmt.Errorf("delete znode %s: %w", p, err)
}

// getJSON reads znode p into v.
func getJSON(conn *zk.Conn, p string, v any) error {
	data, _, err := conn.Get(p)
	if err != nil {
		return fmt.Errorf("read znode %s: %w", p, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("znode %s: %w", p, err)
	}
	return nil
}

// writeChunks stores data as znodes dir/<prefix>-0000, -0001, ... and returns their number.
func writeChunks(conn *zk.Conn, dir, prefix string, data []byte) (int, error) {
	n := 0
	for off := 0; off < len(data); off += chunkSize {
		end := min(off+chunkSize, len(data))
		p := fmt.Sprintf("%s/%s-%04d", dir, prefix, n)
		if _, err := conn.Create(p, data[off:end], 0, acl); err != nil {
			return n, fmt.Errorf("create znode %s: %w", p, err)
		}
		n++
	}
	return n, nil
}

// readChunks reads what writeChunks stored.
func readChunks(conn *zk.Conn, dir, prefix string, n int) ([]byte, error) {
	var out []byte
	for i := range n {
		p := fmt.Sprintf("%s/%s-%04d", dir, prefix, i)
		data, _, err := conn.Get(p)
		if err != nil {
			return nil, fmt.Errorf("read znode %s: %w", p, err)
		}
		out = append(out, data...)
	}
	return out, nil
}
