// Package netguard enforces which network addresses DeskBridge may reach
// where it matters: on the address a connection is actually made to, for
// every connection and every redirect.
//
// The address classes come from package ipclass; Policy says which classes
// and prefixes are open, and Dialer, NewClient and Download apply the Policy
// to real sockets.
//
// Refusals and failures are typed errors with sentinel kinds (ErrBlocked,
// ErrScheme, ErrTooLarge, *DownloadError …), tested with errors.Is and
// errors.As; the engine words them for the user.
package netguard
