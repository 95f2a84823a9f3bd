// Package commands holds the commands skill's action, run_command: its
// arguments, its facts (the parsed argv and resolved program of
// input.command, the working folder) and its run function over
// sandbox/proc, registered with package action in init.
package commands
