package hbase

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// silentServer accepts TCP connections and never answers, as a ZooKeeper
// that is stuck (or a port that is not ZooKeeper's) does.
func silentServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

func TestConnectToASilentZooKeeperSaysSoAndGivesUp(t *testing.T) {
	addr := silentServer(t)
	var mu sync.Mutex
	var said []string
	start := time.Now()
	_, err := Connect(context.Background(), addr, WithZKWait(2*time.Second, func(m string) {
		mu.Lock()
		defer mu.Unlock()
		said = append(said, m)
	}))
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "did not answer within 2s") || !strings.Contains(err.Error(), "regress doctor --zk "+addr) {
		t.Fatalf("Connect to a silent server: %v", err)
	}
	if took > 5*time.Second {
		t.Errorf("took %v to give up, want about 2s", took)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(said) != 1 || !strings.Contains(said[0], "waiting for ZooKeeper "+addr+" to answer") {
		t.Errorf("notices %q, want one saying what it waits for", said)
	}
}
