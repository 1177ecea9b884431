package hbase

import (
	"slices"
	"strings"
	"testing"
)

func TestParseQuorumRefusesBadAddressesUpFront(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "localhost:2181", want: "localhost:2181"},
		{in: "a:1, b:2", want: "a:1,b:2"},
		{in: "zk1", want: "zk1:2181"},
		{in: "[::1]:2181", want: "[::1]:2181"},
		{in: "127.0.0.1:x", err: `port "x" is not a number`},
		{in: ":99999", err: `":99999" has no host`},
		{in: "h:99999", err: `port "99999"`},
		{in: "h:0", err: `port "0"`},
		{in: "a:1,,b:2", err: "server 2 of 3): an empty server"},
		{in: "a:1,", err: "an empty server"},
		{in: "", err: "empty ZooKeeper address"},
		{in: "h:2181/hbase", err: `port "2181/hbase"`},
		{in: "::1", err: "IPv6"},
		{in: "00]0", err: "not a host name"},
		{in: "a b:1", err: "not a host name"},
	} {
		got, err := ParseQuorum(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "give host:port") {
				t.Errorf("ParseQuorum(%q) = %v, %v; want an error with %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, strings.Split(tc.want, ",")) {
			t.Errorf("ParseQuorum(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseQuorum(f *testing.F) {
	for _, s := range []string{"localhost:2181", "a:1,b:2", "127.0.0.1:x", ":99999", "a:1,,b", "[::1]:2181", "h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		servers, err := ParseQuorum(s)
		if err != nil {
			return
		}
		// What it accepts, it accepts again unchanged.
		again, err := ParseQuorum(strings.Join(servers, ","))
		if err != nil || !slices.Equal(again, servers) {
			t.Fatalf("%q -> %v, then %v, %v", s, servers, again, err)
		}
	})
}
