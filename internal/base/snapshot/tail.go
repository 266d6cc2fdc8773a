package snapshot

import (
	"encoding/binary"
	"errors"
)

// EncodeTail is Encode of the value p points to, followed by tail as
// is. A cache entry that carries another encoding (a replay state
// inside a lint checkpoint) keeps it as the tail rather than as a
// []byte field, so that DecodeTail hands it on without copying
// megabytes.
func EncodeTail(p any, tail []byte) ([]byte, error) {
	head, err := Encode(p)
	if err != nil {
		return nil, err
	}
	out := binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(head)+len(tail)), uint64(len(head)))
	return append(append(out, head...), tail...), nil
}

// DecodeTail decodes what EncodeTail wrote into the value p points to
// and returns the tail, which shares data's memory (so, as for Decode,
// the caller must not modify data afterwards).
func DecodeTail(data []byte, p any) (tail []byte, err error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return nil, errors.New("snapshot: corrupt data: bad head length")
	}
	if err := Decode(data[k:k+int(n)], p); err != nil {
		return nil, err
	}
	return data[k+int(n):], nil
}
