// Package control holds the control skill's actions (get_status,
// get_skill_profile, open_deskbridge) and the control panel's start and
// one-time links that `deskbridge panel` and panel-serve use, registered
// with package action in init.
package control
