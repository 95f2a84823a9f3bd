package kinderr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deskbridge/deskbridge/internal/kinderr"
)

var errDamaged = errors.New("demo: damaged")

// TestKindAndMessage: the kind is found through wrapping, the message is
// the error's text, and an error without a message says its kind.
func TestKindAndMessage(t *testing.T) {
	err := fmt.Errorf("reading: %w", kinderr.New(errDamaged, "page %d is cut short", 3))
	var ke *kinderr.Error
	if !errors.Is(err, errDamaged) || !errors.As(err, &ke) || ke.Msg != "page 3 is cut short" {
		t.Fatalf("err = %v, want kind %v and its message", err, errDamaged)
	}
	if got := (&kinderr.Error{Kind: errDamaged}).Error(); got != errDamaged.Error() {
		t.Errorf("without a message: %q, want the kind's text", got)
	}
}

func ExampleNew() {
	err := kinderr.New(errDamaged, "The file %q is cut short; save it again.", "a.pdf")
	fmt.Println(errors.Is(err, errDamaged), err)
	// Output: true The file "a.pdf" is cut short; save it again.
}
