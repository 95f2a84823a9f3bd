package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/control"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/preview"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// ErrServerStale reports a detached server asked to start with another
// configuration or policy than the files on disk now hold.
var ErrServerStale = errors.New("the configuration or policy changed since the server was asked for")

// RunPreviewServer is the process of `deskbridge preview-serve SPEC`,
// which preview_web starts detached. It starts a host of its own for the
// spec's caller from the spec's configuration, refusing to serve unless
// that configuration and its policy hash to the spec's (those of the host
// that started it); then it serves the spec's folder, each file only as
// that host decides the request read_file {path} of the caller, with the
// content check on its bytes, each decision and outcome in the decision
// log. It stops when the configuration or policy on disk changes.
// protected are the extra protected paths of the host (Options).
func RunPreviewServer(ctx context.Context, specJSON string, protected []string) error {
	s, err := preview.ParseSpec(specJSON)
	if err != nil {
		return err
	}
	cfg, _, err := config.Load(s.ConfigSource)
	if err != nil {
		return err
	}
	h, err := Start(ctx, Options{Config: cfg, Origin: s.Origin, Channel: s.Channel, ProtectedPaths: protected, HostLog: os.Stderr})
	if err != nil {
		return err
	}
	defer h.Close()
	started := s.ConfigHash + " " + s.PolicyHash
	if c, p := h.Hashes(); c+" "+p != started {
		return ErrServerStale
	}
	cls := facts.NewClassifier(cfg.Sensitivity.Secret, cfg.Sensitivity.Executes)
	return preview.Run(ctx, s, preview.Wall{
		Classifier: wsview.ClassifierFunc(func(rel string, _ bool) string { return cls.ClassifySlash(rel) }),
		Judge:      h.previewJudge(s.WorkspaceRoot),
		Stale:      func() bool { return Fingerprint(s.ConfigSource) != started },
	})
}

// previewIDs numbers the requests a preview server judges.
var previewIDs atomic.Uint64

// previewJudge is the preview's Judge for files of the workspace at root:
// the request read_file {path} of h's caller runs through h's pipeline
// (facts, decision, decision log, outcome) with previewRead in place of
// read_file's executor.
func (h *Host) previewJudge(root string) preview.Judge {
	return func(ctx context.Context, rel string, read func(int64) ([]byte, error)) ([]byte, error) {
		payload, err := previewRequest(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		var body []byte
		resp, r := h.handleWith(ctx, payload, func(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
			b, perr := previewRead(ctx, env, c, read)
			body = b
			return nil, perr
		})
		r.Finish(false)
		if !resp.Success {
			return nil, fmt.Errorf("preview: %s refused: %s", rel, resp.Error.Code)
		}
		return body, nil
	}
}

// previewRequest is the request read_file {path: abs}, as the extension
// would send it.
func previewRequest(abs string) ([]byte, error) {
	args, err := json.Marshal(map[string]string{"path": abs})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"version": protocol.Version, "id": "preview-" + strconv.FormatUint(previewIDs.Add(1), 10),
		"action": "read_file", "arguments": json.RawMessage(args)})
}

// previewRead is the preview's executor of an allowed read_file: it reads
// the whole file (at most the decision's max_bytes) through the agent
// view and puts it through the content check, which may refuse it or
// overwrite its secrets, before it is served.
func previewRead(ctx context.Context, env *action.Env, c *action.Call, read func(int64) ([]byte, error)) ([]byte, *protocol.Error) {
	setDetail(c, "served_by", "preview_web")
	if p := c.Paths["target"]; !p.Inside || !p.Exists || p.Type != facts.TypeFile {
		return nil, protocol.Errorf(protocol.FileNotFound, "The preview serves only files of the workspace.")
	}
	limit := c.Limit("max_bytes")
	b, err := read(limit)
	switch {
	case errors.Is(err, preview.ErrTooLarge):
		return nil, protocol.Errorf(protocol.ExecutionFailed, "The file is larger than the %d bytes the preview serves.", limit)
	case err != nil:
		return nil, errmap.Workspace(err)
	}
	setDetail(c, "bytes", len(b))
	if perr := env.Content(ctx, c, action.Outgoing{Source: "content", Text: b}); perr != nil {
		return nil, perr
	}
	return b, nil
}

// RunPanelServer is the process of `deskbridge panel-serve SPEC`, which
// open_deskbridge starts detached. The skills it shows it works out
// itself, from the spec's configuration, as get_status would in this
// process: the panel's page tells the truth of the process that serves it.
func RunPanelServer(ctx context.Context, specJSON string) error {
	s, err := panel.ParseSpec(specJSON)
	if err != nil {
		return err
	}
	cfg, _, err := config.Load(s.ConfigSource)
	if err != nil {
		return err
	}
	s.Skills = control.PanelSkills(&action.Env{Config: cfg})
	return panel.Run(ctx, s, os.Stdout)
}

// PanelLink finds or starts the control panel of h's state folder and
// returns a one-time link to it, for the person (`deskbridge panel`):
// never for a response to a request.
func (h *Host) PanelLink(ctx context.Context) (string, error) {
	in, _, perr := control.StartPanel(ctx, h.env)
	if perr != nil {
		return "", perr
	}
	u, perr := control.PanelLink(ctx, in)
	if perr != nil {
		return "", perr
	}
	return u, nil
}
