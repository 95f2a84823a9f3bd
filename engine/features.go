package engine

// The feature packages: each registers its actions' Specs (action.Register)
// in init, and only engine imports them.
import (
	_ "github.com/deskbridge/deskbridge/engine/images" // inspect_image, resize_image, compress_image, convert_image
)
