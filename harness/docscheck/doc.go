// Package docscheck keeps the documentation true: its test runs every
// example command in README.md and docs/*.md that needs no HBase against the
// built binary, checks the exit code each example documents, and checks that
// docs/usage.md names every flag and docs/development.md's package table
// matches the imports of the code.
package docscheck
