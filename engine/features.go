package engine

// The feature packages: each registers its actions' Specs (action.Register)
// in init, and only engine imports them.
import (
	_ "github.com/deskbridge/deskbridge/engine/agent"     // web_agent_start, web_agent_context, web_agent_end
	_ "github.com/deskbridge/deskbridge/engine/assets"    // download_asset, import_asset
	_ "github.com/deskbridge/deskbridge/engine/commands"  // run_command
	_ "github.com/deskbridge/deskbridge/engine/control"   // get_status, get_skill_profile, open_deskbridge
	_ "github.com/deskbridge/deskbridge/engine/desktop"   // get_clipboard, set_clipboard, capture_screen, get_active_window, open_folder, open_app, open_project, open_in_browser, preview_web
	_ "github.com/deskbridge/deskbridge/engine/documents" // convert_document_to_markdown
	_ "github.com/deskbridge/deskbridge/engine/files"     // read_file, write_file, create_file, create_folder, list_folder, patch_file
	_ "github.com/deskbridge/deskbridge/engine/images"    // inspect_image, resize_image, compress_image, convert_image
	_ "github.com/deskbridge/deskbridge/engine/projects"  // create_project, update_project, list_projects, list_checkpoints, diff_checkpoint
)
