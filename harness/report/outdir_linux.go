package report

import "golang.org/x/sys/unix"

// renameExchange swaps two paths in one step (renameat2 RENAME_EXCHANGE): a
// reader of b sees the old folder or the new one, never neither.
func renameExchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
