package main

import (
	"bytes"
	"context"
	"testing"
)

// runCLI runs the regress command line in-process with args and returns what
// it wrote to stdout and stderr, and its error (exitCode maps it to the code).
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}
