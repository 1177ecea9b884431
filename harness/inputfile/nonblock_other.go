//go:build !unix

package inputfile

// openNonBlock is 0 where O_NONBLOCK is unavailable.
const openNonBlock = 0
