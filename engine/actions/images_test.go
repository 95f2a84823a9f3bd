package actions

import (
	"context"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/protocol"
)

// TestPixelSlot: while one request holds decoded pixels, another waits
// for the slot and gives up when its time runs out; it gets the slot once
// it is free.
func TestPixelSlot(t *testing.T) {
	if perr := holdPixels(context.Background()); perr != nil {
		t.Fatal(perr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if perr := holdPixels(ctx); perr == nil || perr.Code != protocol.ImageProcessingFailed {
		t.Fatalf("a second holder: %v", perr)
	}
	<-pixelSlot
	if perr := holdPixels(context.Background()); perr != nil {
		t.Fatal(perr)
	}
	<-pixelSlot
}
