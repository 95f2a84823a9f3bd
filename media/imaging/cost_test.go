package imaging_test

import (
	"errors"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
	"github.com/deskbridge/deskbridge/media/imaging"
)

// budget is the limits of the image actions by default: 100 million
// pixels and 4 bytes a pixel of them.
var budget = imaging.Limits{MaxPixels: 100_000_000, MaxFrames: 1000, MaxMemory: 400_000_000}

// TestDecodeRefusesTheScanBomb: the progressive JPEG of the attack
// (10000×10000, 3 components, AC scans of end-of-band runs alone) is
// exactly the default max_pixels and has few scans, but its coefficients
// alone are 1.2 GB: Decode refuses it from its markers, at once.
func TestDecodeRefusesTheScanBomb(t *testing.T) {
	b := imagetest.ScanBombJPEG(10000, 10000, 3, 10)
	if len(b) > 16<<10 {
		t.Fatalf("the bomb is %d bytes", len(b))
	}
	_, _, err := imaging.Decode(b, budget)
	var me *imaging.MemoryError
	if !errors.As(err, &me) || me.Need < 1_500_000_000 {
		t.Fatalf("decode: %v", err)
	}
}

// TestDecodeRefusesTooManyPasses: a progressive JPEG small enough for the
// memory budget whose scans visit every block more than 16 times is
// refused before decoding; 16 passes are decoded.
func TestDecodeRefusesTooManyPasses(t *testing.T) {
	if _, _, err := imaging.Decode(imagetest.ScanBombJPEG(64, 48, 3, 16), budget); err != nil {
		t.Fatalf("16 passes: %v", err)
	}
	_, _, err := imaging.Decode(imagetest.ScanBombJPEG(2000, 2000, 1, 40), budget)
	var se *imaging.ScanError
	if !errors.As(err, &se) || se.Scans != 40 || se.Visits != 40*250*250 {
		t.Fatalf("40 passes: %v", err)
	}
	if err := imaging.CheckCost(imagetest.ScanBombJPEG(64, 48, 3, 17), budget); !errors.As(err, &se) {
		t.Fatalf("17 passes: %v", err)
	}
}

// TestDecodeRefusesTheZeroPNG16: a 16-bit 10000×10000 PNG of zeros
// (5 MB of deflate) decodes to 800 MB: refused before decoding; the
// same size in 8-bit grey (100 MB) is within the budget.
func TestDecodeRefusesTheZeroPNG16(t *testing.T) {
	b := imagetest.ZeroPNG16(10000, 10000)
	if len(b) > 8<<20 {
		t.Fatalf("the bomb is %d bytes", len(b))
	}
	_, _, err := imaging.Decode(b, budget)
	var me *imaging.MemoryError
	if !errors.As(err, &me) || me.Need != 800_000_000 {
		t.Fatalf("decode: %v", err)
	}
	if err := imaging.CheckCost(imagetest.ClaimingPNG(10000, 10000), budget); err != nil {
		t.Fatalf("8-bit grey: %v", err)
	}
}

// TestCostOfAPlainJPEG: a baseline 10000×10000 JPEG of 3 components
// holds its three planes, 300 MB, within the budget; the same frame
// progressive holds 1.2 GB of coefficients more.
func TestCostOfAPlainJPEG(t *testing.T) {
	if err := imaging.CheckCost(imagetest.FlatJPEG(10000, 10000), budget); err != nil {
		t.Fatal(err)
	}
	var me *imaging.MemoryError
	err := imaging.CheckCost(imagetest.ScanBombJPEG(10000, 10000, 3, 1), budget)
	if !errors.As(err, &me) || me.Need != 320*1250*1250*3 {
		t.Fatalf("progressive: %v", err)
	}
}
