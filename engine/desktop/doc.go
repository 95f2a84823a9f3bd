// Package desktop holds the actions of the desktop skills (clipboard,
// windows, applications): get_clipboard, set_clipboard, capture_screen,
// get_active_window, open_folder, open_app, open_project,
// open_in_browser and preview_web, with the desktop session's profile,
// registered with package action in init. The session itself is
// sandbox/desktop (Env.Desktop), the browser's opener sandbox/browser.
package desktop
