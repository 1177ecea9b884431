//go:build unix

package servercost

import (
	"os"
	"os/user"
	"strconv"
	"syscall"
)

func fileUID(fi os.FileInfo) uint32 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Uid
	}
	return uint32(os.Getuid())
}

func lookupUser(uid uint32) (string, error) {
	u, err := user.LookupId(strconv.Itoa(int(uid)))
	if err != nil {
		return "", err
	}
	return u.Username, nil
}
