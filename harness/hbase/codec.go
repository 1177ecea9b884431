package hbase

import (
	"encoding/binary"
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/regress-hbase/regress/harness/hbase/pb"
)

// maxFrame bounds a response frame so a corrupt length cannot make the reader
// allocate gigabytes.
const maxFrame = 256 << 20

var marshalOpts = proto.MarshalOptions{}

// preamble opens every connection: magic, RPC version 0, SIMPLE authentication.
var preamble = []byte{'H', 'B', 'a', 's', 0, 0x50}

// appendConnectionHeader appends the preamble and the length-prefixed
// ConnectionHeader for service, sent once per connection.
func appendConnectionHeader(b []byte, user, service string) ([]byte, error) {
	b = append(b, preamble...)
	h := &pb.ConnectionHeader{
		UserInfo:    &pb.UserInformation{EffectiveUser: proto.String(user)},
		ServiceName: proto.String(service),
	}
	start := len(b)
	b = append(b, 0, 0, 0, 0)
	b, err := marshalOpts.MarshalAppend(b, h)
	if err != nil {
		return nil, fmt.Errorf("encode connection header: %w", err)
	}
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}

// appendRequest appends one call frame: a 4-byte length, then the
// varint-delimited RequestHeader and the varint-delimited request. The header
// is written by hand because it is on every call and has four scalar fields.
func appendRequest(b []byte, callID uint32, method string, timeoutMillis uint32, req proto.Message) ([]byte, error) {
	start := len(b)
	b = append(b, 0, 0, 0, 0)

	hlen := protowire.SizeTag(1) + protowire.SizeVarint(uint64(callID)) +
		protowire.SizeTag(3) + protowire.SizeBytes(len(method)) +
		protowire.SizeTag(4) + 1
	if timeoutMillis > 0 {
		hlen += protowire.SizeTag(7) + protowire.SizeVarint(uint64(timeoutMillis))
	}
	b = protowire.AppendVarint(b, uint64(hlen))
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(callID))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, method)
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = append(b, 1)
	if timeoutMillis > 0 {
		b = protowire.AppendTag(b, 7, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(timeoutMillis))
	}

	size := marshalOpts.Size(req)
	b = protowire.AppendVarint(b, uint64(size))
	var err error
	b, err = marshalOpts.MarshalAppend(b, req)
	if err != nil {
		return nil, fmt.Errorf("encode %s request: %w", method, err)
	}
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}

// responseFrame is one decoded response frame; body aliases the read buffer.
type responseFrame struct {
	callID    uint32
	exception *pb.ExceptionResponse
	body      []byte // the response message, absent when exception is set
}

// parseResponse splits a response frame (without its 4-byte length) into the
// header fields and the response message bytes.
func parseResponse(frame []byte) (responseFrame, error) {
	var f responseFrame
	hlen, n := protowire.ConsumeVarint(frame)
	if n < 0 || hlen > uint64(len(frame)-n) {
		return f, errors.New("hbase: malformed response header length")
	}
	hdr := frame[n : n+int(hlen)]
	rest := frame[n+int(hlen):]
	haveID := false
	for len(hdr) > 0 {
		num, typ, n := protowire.ConsumeTag(hdr)
		if n < 0 {
			return f, errors.New("hbase: malformed response header")
		}
		hdr = hdr[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(hdr)
			if n < 0 {
				return f, errors.New("hbase: malformed call id")
			}
			f.callID = uint32(v)
			haveID = true
			hdr = hdr[n:]
		case num == 2 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(hdr)
			if n < 0 {
				return f, errors.New("hbase: malformed exception")
			}
			f.exception = &pb.ExceptionResponse{}
			if err := proto.Unmarshal(v, f.exception); err != nil {
				return f, fmt.Errorf("hbase: decode exception: %w", err)
			}
			hdr = hdr[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, hdr)
			if n < 0 {
				return f, errors.New("hbase: malformed response header field")
			}
			hdr = hdr[n:]
		}
	}
	if !haveID {
		return f, errors.New("hbase: response header without call id")
	}
	if f.exception != nil || len(rest) == 0 {
		return f, nil
	}
	blen, n := protowire.ConsumeVarint(rest)
	if n < 0 || blen > uint64(len(rest)-n) {
		return f, errors.New("hbase: malformed response body length")
	}
	f.body = rest[n : n+int(blen)]
	return f, nil
}

// decodeResult converts a protobuf Result into the client's Result. The byte
// slices are shared with the protobuf message, which the caller does not keep.
func decodeResult(r *pb.Result) Result {
	if r == nil || len(r.Cell) == 0 {
		return Result{}
	}
	cells := make([]Cell, len(r.Cell))
	for i, c := range r.Cell {
		cells[i] = Cell{Row: c.Row, Family: c.Family, Qualifier: c.Qualifier, Value: c.Value, Timestamp: int64(c.GetTimestamp())}
	}
	return Result{Cells: cells}
}

// rawDecoder is a response decoded by hand instead of by proto.Unmarshal,
// for the hot paths where per-cell allocations matter.
type rawDecoder interface {
	decodeRaw(body []byte) error
}

// getResult decodes a GetResponse straight into a Result: one copy of the
// body, one []Cell, and cells that alias the copy.
type getResult struct {
	res Result
}

func (g *getResult) decodeRaw(body []byte) error {
	g.res = Result{}
	var result []byte
	for len(body) > 0 {
		num, typ, n := protowire.ConsumeTag(body)
		if n < 0 {
			return errors.New("malformed GetResponse")
		}
		body = body[n:]
		if num == 1 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(body)
			if n < 0 {
				return errors.New("malformed GetResponse.result")
			}
			// A message field sent twice merges, as concatenated bytes do.
			if result == nil {
				result = v
			} else {
				result = append(append([]byte(nil), result...), v...)
			}
			body = body[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, body)
		if n < 0 {
			return errors.New("malformed GetResponse field")
		}
		body = body[n:]
	}
	if len(result) == 0 {
		return nil
	}
	cells, err := decodeCells(append([]byte(nil), result...))
	g.res.Cells = cells
	return err
}

// scanResult decodes a ScanResponse by hand: one copy of the body, one
// []Cell per row, cells aliasing the copy.
type scanResult struct {
	scannerID         uint64
	hasScannerID      bool
	moreResults       bool // false only when the server said so
	moreResultsInRegn bool // false only when the server said so
	// saidInRegion is set when the response carried more_results_in_region
	// (1.1+); a 0.98 or 1.0 server never sends it.
	saidInRegion bool
	results      []Result
}

func (s *scanResult) decodeRaw(body []byte) error {
	*s = scanResult{moreResults: true, moreResultsInRegn: true}
	own := append([]byte(nil), body...)
	for b := own; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return errors.New("malformed ScanResponse")
		}
		b = b[n:]
		switch {
		case typ == protowire.VarintType && (num == 2 || num == 3 || num == 8):
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return errors.New("malformed ScanResponse varint")
			}
			b = b[n:]
			switch num {
			case 2:
				s.scannerID, s.hasScannerID = v, true
			case 3:
				s.moreResults = v != 0
			case 8:
				s.moreResultsInRegn, s.saidInRegion = v != 0, true
			}
		case num == 5 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return errors.New("malformed ScanResponse.results")
			}
			b = b[n:]
			cells, err := decodeCells(v)
			if err != nil {
				return err
			}
			s.results = append(s.results, Result{Cells: cells})
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return errors.New("malformed ScanResponse field")
			}
			b = b[n:]
		}
	}
	return nil
}

// decodeCells parses the Cell fields of an encoded Result. The cells' slices
// alias result, which the caller must own (a copy of the read buffer).
func decodeCells(result []byte) ([]Cell, error) {
	count := 0
	for b := result; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, errors.New("malformed Result")
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			count++
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, errors.New("malformed Result field")
		}
		b = b[n:]
	}
	if count == 0 {
		return nil, nil
	}
	cells := make([]Cell, 0, count)
	for b := result; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		if num != 1 || typ != protowire.BytesType {
			b = b[protowire.ConsumeFieldValue(num, typ, b):]
			continue
		}
		cb, n := protowire.ConsumeBytes(b)
		b = b[n:]
		var c Cell
		for len(cb) > 0 {
			num, typ, n := protowire.ConsumeTag(cb)
			if n < 0 {
				return nil, errors.New("malformed Cell")
			}
			cb = cb[n:]
			switch {
			case typ == protowire.BytesType && (num == 1 || num == 2 || num == 3 || num == 6):
				v, n := protowire.ConsumeBytes(cb)
				if n < 0 {
					return nil, errors.New("malformed Cell bytes")
				}
				cb = cb[n:]
				switch num {
				case 1:
					c.Row = v
				case 2:
					c.Family = v
				case 3:
					c.Qualifier = v
				case 6:
					c.Value = v
				}
			case num == 4 && typ == protowire.VarintType:
				v, n := protowire.ConsumeVarint(cb)
				if n < 0 {
					return nil, errors.New("malformed Cell timestamp")
				}
				c.Timestamp = int64(v)
				cb = cb[n:]
			default:
				n := protowire.ConsumeFieldValue(num, typ, cb)
				if n < 0 {
					return nil, errors.New("malformed Cell field")
				}
				cb = cb[n:]
			}
		}
		cells = append(cells, c)
	}
	return cells, nil
}
