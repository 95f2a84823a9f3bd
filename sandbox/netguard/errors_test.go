package netguard

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/ipclass"
)

// TestCheckURLKinds checks the sentinel kind of each refusal CheckURL makes.
func TestCheckURLKinds(t *testing.T) {
	for raw, want := range map[string]error{
		"ftp://example.com/":    ErrScheme,
		"http://u@example.com/": ErrURLForm,
		"http://256.1.1.1/":     ErrIPv4,
		"http://0x08080808/":    ErrIPForm,
		"http://10.0.0.1/":      ErrBlocked,
		"http://localhost/":     ErrBlocked,
		"https://example.com/a": nil,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckURL(Policy{}, u); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("CheckURL(%s) = %v, want %v", raw, err, want)
		}
	}
}

// TestTypedErrors checks errors.As and the detail of each typed error.
func TestTypedErrors(t *testing.T) {
	a := netip.MustParseAddr("169.254.169.254")
	var be *BlockedError
	if err := (Policy{}).Check(a); !errors.As(err, &be) || be.Class != ipclass.Classify(a) || !errors.Is(err, ErrBlocked) {
		t.Errorf("Check(%s) = %v", a, err)
	}
	var se *StatusError
	if err := checkResponse(&http.Response{StatusCode: 404}, 10); !errors.As(err, &se) || se.Code != 404 || !errors.Is(err, ErrStatus) {
		t.Errorf("status 404: %v", err)
	}
	var te *TooLargeError
	if err := checkResponse(&http.Response{StatusCode: 200, ContentLength: 501}, 500); !errors.As(err, &te) || te.Limit != 500 || !errors.Is(err, ErrTooLarge) {
		t.Errorf("tooLarge: %v", err)
	}
	var ce *ContentTypeError
	var err error = &ContentTypeError{Sent: "text/html", Want: "image"}
	if !errors.As(err, &ce) || !errors.Is(err, ErrContentType) {
		t.Errorf("content type: %v", err)
	}
}

// TestStepError checks that a refusal passes through and anything else
// becomes a *DownloadError, with ErrTimeout after the deadline.
func TestStepError(t *testing.T) {
	refusal := &url.Error{Op: "Get", URL: "http://x/", Err: ErrRedirects}
	if err := stepError(context.Background(), OpConnect, refusal); err != refusal {
		t.Errorf("refusal became %v", err)
	}
	var de *DownloadError
	err := stepError(context.Background(), OpReceive, errors.New("reset"))
	if !errors.As(err, &de) || de.Op != OpReceive || errors.Is(err, ErrTimeout) {
		t.Errorf("reset: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	if err := stepError(ctx, OpConnect, errors.New("slow")); !errors.As(err, &de) || de.Op != OpConnect || !errors.Is(err, ErrTimeout) {
		t.Errorf("deadline: %v", err)
	}
}
