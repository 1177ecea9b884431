package loadhosts

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"
)

// Clock is one process's clock measured against ZooKeeper's: the time the
// quorum's leader stamps on every write (a znode's mtime). Every load host
// and the coordinator measure theirs, so a start instant written on
// ZooKeeper's clock is one instant on every host, whatever their own clocks say.
type Clock struct {
	// Offset is ZooKeeper's clock minus this process's.
	Offset time.Duration `json:"offset_ns"`
	// Error bounds Offset: half the round trip it was read over, plus half
	// a millisecond (mtime has millisecond resolution).
	Error time.Duration `json:"error_ns"`
}

// Local is the instant zkTime (on ZooKeeper's clock) on this process's clock.
func (c Clock) Local(zkTime time.Time) time.Time { return zkTime.Add(-c.Offset) }

// ZK is the instant local (on this process's clock) on ZooKeeper's.
func (c Clock) ZK(local time.Time) time.Time { return local.Add(c.Offset) }

// clockSamples is how many writes a clock reading takes; the one with the
// shortest round trip is kept (NTP's rule: its midpoint is the best bound).
const clockSamples = 5

// readClock measures this process's clock against ZooKeeper's by writing
// the znode at p (made ephemeral when missing) clockSamples times: the
// write's mtime lies between the local instants before and after it.
// now is this process's clock.
func readClock(conn *zk.Conn, p string, now func() time.Time) (Clock, error) {
	if _, err := conn.Create(p, nil, zk.FlagEphemeral, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		return Clock{}, fmt.Errorf("clock znode %s: %w", p, err)
	}
	best := Clock{Error: -1}
	for range clockSamples {
		t0 := now()
		st, err := conn.Set(p, nil, -1)
		t1 := now()
		if err != nil {
			return Clock{}, fmt.Errorf("read ZooKeeper's clock through %s: %w", p, err)
		}
		half := t1.Sub(t0) / 2
		// mtime is truncated to the millisecond: its instant's middle is +0.5 ms.
		zkTime := time.UnixMilli(st.Mtime).Add(500 * time.Microsecond)
		c := Clock{Offset: zkTime.Sub(t0.Add(half).Round(0)), Error: half + 500*time.Microsecond}
		if best.Error < 0 || c.Error < best.Error {
			best = c
		}
	}
	return best, nil
}

// offsetFrom is how far a host's clock is ahead of the coordinator's, from
// both clocks' readings against ZooKeeper, and the bound on that figure.
func offsetFrom(host, coordinator Clock) (ahead, bound time.Duration) {
	return coordinator.Offset - host.Offset, coordinator.Error + host.Error
}
