// Package files holds the files skill's actions (read_file, write_file,
// create_file, create_folder, list_folder, patch_file): their argument
// types, facts and run functions, registered with package action in
// init, and the answers' encoders that measure a page against the
// message cap.
package files
