package cluster

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// metaZnode is a meta-region-server znode as HBase 2.6.1 wrote it, with the
// state byte (last) replaced per case.
func metaZnode(state byte) []byte {
	b := []byte("\xff\x00\x00\x00\x14master:39553bKl\xb4C\xed\xdb\xe8PBUF\n\x16\n\t127.0.0.1\x10\x8f\xdc\x02\x18\xe0\xf5\xe0\xed\xa24\x10\x00\x18")
	return append(b, state)
}

func TestMetaState(t *testing.T) {
	for _, c := range []struct {
		data []byte
		want int
	}{
		{metaZnode(3), regionStateOpen},
		{metaZnode(2), 2}, // OPENING: the znode exists before meta serves
		{metaZnode(3)[:len(metaZnode(3))-2], regionStateOpen},
	} {
		got, err := metaState(c.data)
		if err != nil || got != c.want {
			t.Errorf("metaState(%q) = %d, %v; want %d", c.data, got, err, c.want)
		}
	}
	for _, bad := range [][]byte{nil, []byte("PBUF"), []byte("\xff\x00\x00\x00\x02abXXXX"), []byte("\xff\x00\x00\x00\x00PBUF\x18")} {
		if _, err := metaState(bad); err == nil {
			t.Errorf("metaState(%q) accepted corrupt data", bad)
		}
	}
}

// logOnly is a Cluster whose only meaningful attribute is its log.
type logOnly struct{ path string }

func (l logOnly) ZKAddr() string             { return "" }
func (l logOnly) Version() string            { return "" }
func (l logOnly) LogPath() string            { return l.path }
func (l logOnly) Stop(context.Context) error { return nil }

func TestMasterInitializedReadyReadsNewLinesOnly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hbase.log")
	check := MasterInitializedReady()
	c := logOnly{p}
	if err := check(context.Background(), c); err == nil {
		t.Fatal("ready without a log")
	}
	if err := os.WriteFile(p, []byte("starting\nMaster has completed init"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := check(context.Background(), c); err == nil {
		t.Fatal("ready on a half-written line")
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("ialization 3.2sec\n")
	f.Close()
	if err := check(context.Background(), c); err != nil {
		t.Fatalf("not ready after the line was completed: %v", err)
	}
}
