// Package actions holds DeskBridge's built actions, one file each: the
// argument type with its Validate method, the facts it gathers, and the
// executor call that carries it out. Each file registers its action with
// package action in init; nothing else needs to change to add one.
package actions
