// Package project is the executor of create_project and update_project:
// the project templates (embedded, and a team's own folder of them), the
// project registry in the state folder, and the git repository of a
// project, made and committed to with go-git (no git program, hook or
// filter ever runs).
package project
