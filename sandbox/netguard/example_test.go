package netguard_test

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"time"

	"github.com/deskbridge/deskbridge/internal/ipclass"
	"github.com/deskbridge/deskbridge/sandbox/netguard"
)

func ExampleClassify() {
	for _, s := range []string{"8.8.8.8", "10.1.2.3", "169.254.169.254", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe"} {
		fmt.Println(s, ipclass.Classify(netip.MustParseAddr(s)))
	}
	// Output:
	// 8.8.8.8 public
	// 10.1.2.3 private
	// 169.254.169.254 metadata
	// ::ffff:127.0.0.1 loopback
	// 64:ff9b::a9fe:a9fe metadata
}

func ExampleDownload() {
	// The configuration's network.allow_private, and the addresses the
	// policy saw for the URL's host (engine/urlfacts Facts.Addrs).
	policy, err := netguard.ParsePolicy([]string{"10.20.0.0/16"})
	if err != nil {
		panic(err)
	}
	checked := []netip.Addr{netip.MustParseAddr("10.20.0.7")}
	client := netguard.NewClient(netguard.ClientOptions{
		Policy: policy,
		Lookup: netguard.Pin("assets.intranet.example", checked, nil),
	})
	dst, err := os.OpenRoot(os.TempDir())
	if err != nil {
		panic(err)
	}
	defer dst.Close()
	res, err := netguard.Download(context.Background(), client, "https://assets.intranet.example/logo.png",
		dst, "logo.png", netguard.Options{MaxBytes: 10 << 20, Timeout: 30 * time.Second})
	if err != nil {
		fmt.Println(err) // a typed error: errors.Is(err, netguard.ErrBlocked) and the like
		return
	}
	fmt.Println(res.Path, res.Size, res.ContentType, res.SHA256)
}
