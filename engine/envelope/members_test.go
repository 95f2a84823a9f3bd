package envelope

import (
	"testing"
	"unsafe"
)

// TestMemberValuesArePiecesOfThePayload: objectMembers hands out the
// values where they lie in the payload (no copy each), the same bytes
// whatever the spacing around them, and none reaches past its own end
// (an append to one cannot write over the next).
func TestMemberValuesArePiecesOfThePayload(t *testing.T) {
	raw := []byte(" {\"id\" : \"7\",\n\t\"arguments\":{ \"path\" : \"/a b\" } , \"n\":[1, 2]\t} ")
	want := map[string]string{"id": `"7"`, "arguments": `{ "path" : "/a b" }`, "n": `[1, 2]`}
	members, err := objectMembers(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	start, end := uintptr(unsafe.Pointer(&raw[0])), uintptr(unsafe.Pointer(&raw[0]))+uintptr(len(raw))
	for name, w := range want {
		v := members[name]
		if string(v) != w {
			t.Errorf("%s = %q; want %q", name, v, w)
			continue
		}
		if p := uintptr(unsafe.Pointer(&v[0])); p < start || p >= end {
			t.Errorf("%s is a copy; want the piece of the payload", name)
		}
		if cap(v) != len(v) {
			t.Errorf("%s has room for %d more bytes after it; want none", name, cap(v)-len(v))
		}
	}
}
