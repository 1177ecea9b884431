package hbase

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// defaultZKPort is ZooKeeper's client port, taken for a server named without one.
const defaultZKPort = "2181"

// ParseQuorum checks a ZooKeeper quorum as every --zk flag takes it,
// host:port[,host:port...] (a host without a port gets ZooKeeper's 2181), and
// returns its servers as host:port. A bad address is refused here, saying
// what is wrong, rather than found when the connection times out: an empty
// item, a port that is not a number in 1..65535, an empty host, a host with
// blanks or slashes (a chroot path is not supported).
func ParseQuorum(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty ZooKeeper address: give host:port[,host:port...], e.g. localhost:2181")
	}
	items := strings.Split(s, ",")
	out := make([]string, 0, len(items))
	for i, item := range items {
		item = strings.TrimSpace(item)
		bad := func(why string) error {
			where := ""
			if len(items) > 1 {
				where = fmt.Sprintf(" (server %d of %d)", i+1, len(items))
			}
			return fmt.Errorf("ZooKeeper address %q%s: %s; give host:port[,host:port...], e.g. localhost:2181", s, where, why)
		}
		if item == "" {
			return nil, bad("an empty server (a stray comma?)")
		}
		host, port, err := net.SplitHostPort(item)
		if err != nil {
			if strings.Contains(strings.Trim(item, "[]"), ":") && !strings.HasPrefix(item, "[") {
				return nil, bad(fmt.Sprintf("%q is not host:port (write an IPv6 address as [addr]:port)", item))
			}
			host, port = strings.Trim(item, "[]"), defaultZKPort
		}
		if host == "" {
			return nil, bad(fmt.Sprintf("%q has no host", item))
		}
		if !validHost(host) {
			return nil, bad(fmt.Sprintf("host %q is not a host name or address", host))
		}
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return nil, bad(fmt.Sprintf("port %q is not a number from 1 to 65535", port))
		}
		out = append(out, net.JoinHostPort(host, strconv.Itoa(n)))
	}
	return out, nil
}

// validHost accepts a host name (letters, digits, '.', '-', '_') or an IP
// address; an IPv6 one comes without its brackets here.
func validHost(h string) bool {
	if strings.Contains(h, ":") {
		return net.ParseIP(h) != nil
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
