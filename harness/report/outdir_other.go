//go:build !linux

package report

import "errors"

// renameExchange is unsupported here: Commit moves the earlier folder aside first.
func renameExchange(a, b string) error { return errors.ErrUnsupported }
