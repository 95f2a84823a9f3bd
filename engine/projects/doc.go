// Package projects holds the projects skill's actions (create_project,
// update_project, list_projects, list_checkpoints, diff_checkpoint):
// their argument types, facts and run functions over sandbox/project,
// the project name rules, and the skill's profile (its templates),
// registered with package action in init.
package projects
