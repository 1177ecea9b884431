package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrLink marks a path of the store that is a symbolic link where one of the
// store's own directories or files belongs (errors.Is).
var ErrLink = errors.New("a symbolic link in the results store")

// linkError is a link found by noLink: where it is and what belongs there.
type linkError struct{ path, belongs string }

func (e *linkError) Error() string { return e.path + " is " + e.words() }

// words is the message without the path: what `results check` says of a
// leftover it names.
func (e *linkError) words() string {
	itself := "the directory"
	if e.belongs == "a capacity sweep" || e.belongs == "a manifest" {
		itself = "the file"
	}
	return fmt.Sprintf("a symbolic link where %s belongs: the store does not follow links; put %s itself there, or delete the link (rm %s)", e.belongs, itself, shellQuote(e.path))
}

func (e *linkError) Unwrap() error { return ErrLink }

// noLink is the store's one rule on symbolic links, for the readers and the
// writers alike: below a base directory (the store's root, or an entry's
// directory), no element of the path base/parts[0]/parts[1]/... may be a
// link. A writer that followed one would store an entry where no reader
// looks for it (and `results check` and `results remove` refuse it); a
// reader that followed one would read results stored somewhere else. An
// element that does not exist ends the walk: nothing below it exists
// either, and a writer creates it as a directory. The base itself may be a
// link (a --store given as a link is the user's choice).
func noLink(base string, parts ...string) error {
	p := base
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return &linkError{path: p, belongs: belongsAt(parts, i)}
		}
	}
	return nil
}

// belongsAt says what belongs at parts[i] of a store path, for noLink's
// message: the words `results check` uses for the same place.
func belongsAt(parts []string, i int) string {
	switch {
	case parts[i] == trialsDir:
		return "an entry's trials/ directory"
	case parts[i] == ProfilesDir:
		return "an entry's profiles/ directory"
	case parts[i] == manifestFile:
		return "a manifest"
	case i == 0:
		return "a target directory"
	case i == 1 && parts[0] == sweepsDir && filepath.Ext(parts[1]) == ".json":
		return "a capacity sweep"
	case i == 1:
		return "an entry directory"
	}
	return "a file of the store"
}

// noLinkIn is noLink below the store's root.
func (s *Store) noLinkIn(parts ...string) error { return noLink(s.root, parts...) }

// noLinkTo is noLink for k's entry: its target and entry directories, and
// below them parts (trials, a log...).
func (s *Store) noLinkTo(k Key, parts ...string) error {
	return s.noLinkIn(append([]string{k.Target, filepath.Base(s.Dir(k))}, parts...)...)
}
