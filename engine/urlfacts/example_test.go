package urlfacts_test

import (
	"context"
	"fmt"

	"github.com/deskbridge/deskbridge/engine/urlfacts"
)

func ExampleGather() {
	facts, _, err := urlfacts.Gather(context.Background(), "http://0x7f000001:8080/admin", nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(facts.Normalized, facts.IsIPLiteral, facts.Classes)
	// Output: http://127.0.0.1:8080/admin true [loopback]
}

func ExampleParse() {
	_, err := urlfacts.Parse("http://evil@127.0.0.1/")
	fmt.Println(err)
	// Output: INVALID_URL: The URL must not carry a user name or password before the host.
}
