package engine

// The feature packages: each registers its actions' Specs (action.Register)
// in init, and only engine imports them.
import (
	_ "github.com/deskbridge/deskbridge/engine/documents" // convert_document_to_markdown
	_ "github.com/deskbridge/deskbridge/engine/files"     // read_file, write_file, create_file, create_folder, list_folder, patch_file
	_ "github.com/deskbridge/deskbridge/engine/images"    // inspect_image, resize_image, compress_image, convert_image
)
