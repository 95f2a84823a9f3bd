package assets

import (
	"context"
	"encoding/hex"
	"net/netip"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/netguard"
)

type downloadArgs struct {
	URL         string `json:"url" jsonschema:"required,minLength=1"`
	Destination string `json:"destination" jsonschema:"required,minLength=1"`
	MaxBytes    int64  `json:"max_bytes" jsonschema:"minimum=0"`
	TimeoutMS   int64  `json:"timeout_ms" jsonschema:"minimum=0"`
	Overwrite   bool   `json:"overwrite"`
	// ExpectedSHA256 is the hex SHA-256 the file must have.
	ExpectedSHA256 string `json:"expected_sha256" jsonschema:"minLength=64,maxLength=64"`
}

func (a *downloadArgs) Validate() error {
	if a.ExpectedSHA256 != "" && !isHexDigest(a.ExpectedSHA256) {
		return envelope.ArgumentError("The argument expected_sha256 must be a SHA-256 in 64 hexadecimal digits.")
	}
	return nil
}

// isHexDigest reports whether s is 64 hexadecimal digits.
func isHexDigest(s string) bool {
	_, err := hex.DecodeString(s)
	return len(s) == 64 && err == nil
}

// downloadData is download_asset's data.
type downloadData struct {
	Path        string `json:"path"`
	Size        int64  `json:"size"`
	ContentType string `json:"content_type"`
	SHA256      string `json:"sha256"`
	Created     bool   `json:"created"`
}

func init() {
	action.Register(action.Spec{
		Name:    "download_asset",
		Rules:   []action.Rule{action.Absolute("destination")},
		NewArgs: func() any { return &downloadArgs{} },
		Facts:   downloadFacts,
		Run:     downloadAsset,
	})
}

// downloadFacts records input.url and the destination path fact; an
// existing folder receives the URL's last path element (never a name the
// server sends).
func downloadFacts(ctx context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[downloadArgs](c)
	f, perr := action.URLFacts(ctx, c, a.URL)
	if perr != nil {
		return perr
	}
	return action.DestinationWrite(env, c, a.Destination, urlName(f.Path))
}

// downloadAsset fetches the URL with a client that dials only the
// addresses the policy judged and has the policy judge every redirect
// before its name is looked up (judgeHop), into the destination through
// the workspace's root handle.
func downloadAsset(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[downloadArgs](c)
	p := c.Paths["destination"]
	root, perr := env.WritableRoot(p)
	if perr != nil {
		return nil, perr
	}
	pol, err := netguard.ParsePolicy(env.Config.Network.AllowPrivate)
	if err != nil {
		return nil, protocol.Wrap(protocol.InternalError, err, "The configuration's network.allow_private could not be read.")
	}
	f := action.CheckedURL(c)
	client := netguard.NewClient(netguard.ClientOptions{
		Policy:   pol,
		Lookup:   netguard.Pin(f.ASCIIHost, urlfacts.Addrs(f), netguard.NoLookup),
		JudgeHop: judgeHop(c),
	})
	defer client.CloseIdleConnections()
	maxBytes := action.Lower(c.Limit("max_bytes"), a.MaxBytes)
	timeout := time.Duration(action.Lower(c.Limit("timeout_ms"), a.TimeoutMS)) * time.Millisecond
	res, err := netguard.Download(ctx, client, f.Normalized, root, p.Rel(), netguard.Options{
		MaxBytes: maxBytes, Timeout: timeout, Overwrite: a.Overwrite, SHA256: strings.ToLower(a.ExpectedSHA256),
	})
	if err != nil {
		return nil, errmap.Download(err)
	}
	return downloadData{Path: p.Canonical, Size: res.Size, ContentType: res.ContentType, SHA256: res.SHA256, Created: res.Created}, nil
}

// noJudge refuses a redirect of a call that has no JudgeRedirect.
func noJudge() *protocol.Error {
	return protocol.Errorf(protocol.ExecutionFailed, "The server redirected, and no policy is there to judge where to; use the final address directly.")
}

// judgeHop is the client's JudgeHop for c: the engine's JudgeRedirect,
// which decides the hop as a URL of the request (its name first, then its
// addresses) and returns the addresses it judged; a call without one
// refuses every redirect.
func judgeHop(c *action.Call) netguard.JudgeHop {
	return func(ctx context.Context, hop netguard.Hop) ([]netip.Addr, error) {
		if c.JudgeRedirect == nil {
			return nil, noJudge()
		}
		f, perr := c.JudgeRedirect(ctx, hop.URL.String(), hop.From.String(), hop.N)
		if perr != nil {
			return nil, perr
		}
		return urlfacts.Addrs(f), nil
	}
}
