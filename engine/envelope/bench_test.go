package envelope

import (
	"testing"
)

// benchReadArgs is read_file's argument type, as the benchmark decodes it.
type benchReadArgs struct {
	Path     string `json:"path" jsonschema:"minLength=1"`
	Encoding string `json:"encoding" jsonschema:"enum=utf-8,enum=base64"`
	Offset   int64  `json:"offset" jsonschema:"minimum=0"`
	Length   int64  `json:"length" jsonschema:"minimum=0"`
}

var benchPayload = []byte(`{"version":1,"id":"b","action":"read_file","arguments":{"path":"/tmp/benchhost-123456/ws/small.txt"}}`)

// BenchmarkDecode is decoding a read_file envelope.
func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, perr := Decode(benchPayload); perr != nil {
			b.Fatal(perr)
		}
	}
}

// BenchmarkDecodeArguments is decoding read_file's arguments strictly.
func BenchmarkDecodeArguments(b *testing.B) {
	req, perr := Decode(benchPayload)
	if perr != nil {
		b.Fatal(perr)
	}
	b.ReportAllocs()
	for b.Loop() {
		var a benchReadArgs
		if perr := DecodeArguments(req.Arguments, &a); perr != nil {
			b.Fatal(perr)
		}
	}
}
