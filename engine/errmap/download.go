package errmap

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net/url"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/netguard"
)

// urlRules are the refusals of netguard's URL and redirect checks.
var urlRules = []rule{
	{netguard.ErrScheme, protocol.UnsupportedProtocol, "Only http and https URLs can be fetched; use an http or https address."},
	{netguard.ErrURL, protocol.InvalidURL, "The URL does not parse; check it and try again."},
	{netguard.ErrURLForm, protocol.InvalidURL, "The URL must be an absolute http or https address without user name or password."},
	{netguard.ErrIPv4, protocol.InvalidURL, "The host is not a valid IPv4 address; check the URL."},
	{netguard.ErrIPForm, protocol.InvalidURL, "The host is an IP address in a non-standard form; write it as dotted decimal."},
	{netguard.ErrRedirects, protocol.ExecutionFailed, "The server redirected too many times; use the final address directly."},
	{netguard.ErrUnjudged, protocol.ExecutionFailed, "The server redirected to a host that was not judged before its look-up; use the final address directly."},
	{fs.ErrExist, protocol.FileAlreadyExists, "The destination file already exists; choose another name or pass \"overwrite\": true."},
}

// stepMessages word a *netguard.DownloadError by its step.
var stepMessages = map[string]string{
	netguard.OpCheck:   "The destination cannot be checked; check that the folder exists and is readable.",
	netguard.OpConnect: "The server could not be reached; check the URL and your connection.",
	netguard.OpReceive: "The download broke off before it was complete; try again.",
	netguard.OpCreate:  "The destination folder cannot be written to; check that it exists and is writable.",
	netguard.OpSave:    "The download could not be saved; check the free space in the destination.",
	netguard.OpRename:  "The download could not be moved into place; check the destination folder.",
}

// timeoutMessages word a step that ran out of time.
var timeoutMessages = map[string]string{
	netguard.OpConnect: "The server did not answer in time; try again later or raise the download timeout.",
	netguard.OpReceive: "The download did not finish in time; try again later or raise the download timeout.",
}

// Download maps an error of netguard.Download to its protocol error.
func Download(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	var he *netguard.HopError
	if pe, ok := asProtocol(err); ok && errors.As(err, &he) {
		return pe // the judge's refusal of a redirect, worded by the judge
	}
	if pe := detailed(err); pe != nil {
		return pe
	}
	if pe := certificate(err); pe != nil {
		return pe
	}
	if pe := match(err, urlRules); pe != nil {
		return pe
	}
	var de *netguard.DownloadError
	if errors.As(err, &de) {
		return step(de)
	}
	if pe, ok := asProtocol(err); ok {
		return pe
	}
	if pe := match(err, fileRules); pe != nil { // the file to overwrite is not a regular file
		return pe
	}
	return protocol.Wrap(protocol.ExecutionFailed, err, "The download failed; try again.")
}

// detailed maps netguard's typed errors, whose message names their detail.
func detailed(err error) *protocol.Error {
	var (
		be *netguard.BlockedError
		se *netguard.StatusError
		ce *netguard.ContentTypeError
		te *netguard.TooLargeError
		he *netguard.HashError
	)
	switch {
	case errors.As(err, &be):
		return protocol.Wrap(protocol.PrivateNetworkBlocked, err, fmt.Sprintf("The address is in the %s range, which DeskBridge does not reach; "+
			"use a public address or list the range in network.allow_private.", be.Class))
	case errors.As(err, &se):
		return protocol.Wrap(protocol.ExecutionFailed, err, fmt.Sprintf("The server answered with status %d; check the URL.", se.Code))
	case errors.As(err, &ce):
		return protocol.Wrap(protocol.InvalidContentType, err, fmt.Sprintf("The server sent %s content, which does not suit a %s file; choose a matching file extension.", ce.Sent, ce.Want))
	case errors.As(err, &te):
		return protocol.Wrap(protocol.DownloadTooLarge, err, fmt.Sprintf("The file is larger than the %d-byte limit; raise max_bytes or choose a smaller file.", te.Limit))
	case errors.As(err, &he):
		return protocol.Wrap(protocol.ExecutionFailed, err, fmt.Sprintf("The downloaded file has SHA-256 %s, not the expected_sha256 %s, so it was not saved; check the URL and the digest.", he.Got, he.Want))
	}
	return nil
}

// step maps a failed step of a download.
func step(de *netguard.DownloadError) *protocol.Error {
	if msg, ok := timeoutMessages[de.Op]; ok && errors.Is(de, netguard.ErrTimeout) {
		return protocol.Wrap(protocol.DownloadTimeout, de, msg)
	}
	if msg, ok := stepMessages[de.Op]; ok {
		return protocol.Wrap(protocol.ExecutionFailed, de, msg)
	}
	return protocol.Wrap(protocol.ExecutionFailed, de, "The download failed; try again.")
}

// certificate maps a TLS certificate the client refused: one that does
// not name the host (an https URL to an IP address, or to another name),
// one signed by an authority this computer does not trust, or one expired
// or otherwise invalid. Without it the refusal reads "could not be
// reached", and the person looks for a network fault.
func certificate(err error) *protocol.Error {
	var (
		he x509.HostnameError
		ue x509.UnknownAuthorityError
		ie x509.CertificateInvalidError
	)
	misnamedHost := ""
	if errors.As(err, &he) {
		misnamedHost = he.Host
	} else if errors.As(err, &ue) {
		misnamedHost = misnamed(err, ue.Cert) // Windows says the authority first
	}
	switch {
	case misnamedHost != "":
		return protocol.Wrap(protocol.ExecutionFailed, err, fmt.Sprintf("The server's TLS certificate is not valid for %s, so DeskBridge did not connect; "+
			"use the host name the certificate names (not an IP address), or ask the server's owner for a certificate that names %s.", misnamedHost, misnamedHost))
	case errors.As(err, &ue):
		return protocol.Wrap(protocol.ExecutionFailed, err, "The server's TLS certificate is not signed by an authority this computer trusts (it is self-signed or from a private authority), so DeskBridge did not connect; "+
			"install that authority in the system's trust store, or use the server's public address.")
	case errors.As(err, &ie):
		return protocol.Wrap(protocol.ExecutionFailed, err, "The server's TLS certificate is expired, not valid yet or not valid for a web server, so DeskBridge did not connect; check the computer's clock, or ask the server's owner to renew it.")
	}
	return nil
}

// misnamed is the host of err's URL when the certificate leaf does not
// name it, "" otherwise. Windows' verifier (CertGetCertificateChain, then
// the SSL policy) reports an untrusted root before a wrong name, where Go's
// own verifier (Linux) checks the name first: a self-signed certificate
// for another name is then "unknown authority" on Windows only. The name
// is the fault the person can act on, so it is told on both.
func misnamed(err error, leaf *x509.Certificate) string {
	var ue *url.Error
	if leaf == nil || !errors.As(err, &ue) {
		return ""
	}
	u, perr := url.Parse(ue.URL)
	if perr != nil || u.Hostname() == "" || leaf.VerifyHostname(u.Hostname()) == nil {
		return ""
	}
	return u.Hostname()
}
