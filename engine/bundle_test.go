package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/policy/bundletest"
)

func bundleConfig(t *testing.T, bundleBytes []byte, key bundletest.Key) *config.Config {
	t.Helper()
	dir := t.TempDir()
	b := bundletest.WriteFile(t, dir, "acme.tar.gz", bundleBytes)
	pub := bundletest.WriteFile(t, dir, "acme.pem", []byte(key.PublicPEM))
	doc := fmt.Sprintf(`{"workspaces":[{"name":"ws","path":%q}],"allowed_origins":[%q],"decision_log":{"path":%q},
		"policy":{"bundle":%q,"bundle_key_id":%q,"bundle_public_key":%q}}`,
		dir, testOrigin, filepath.Join(dir, "log", "d.jsonl"), b, bundletest.KeyID, pub)
	cfg, err := config.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestSignedBundleDecidesAndIsStamped(t *testing.T) {
	key := bundletest.NewKey(t)
	cfg := bundleConfig(t, bundletest.Build(t, policy.Embedded().Modules, "acme-rev-3", &key), key)
	h, err := Start(context.Background(), Options{Config: cfg, Origin: testOrigin, Channel: ChannelNative, HostLog: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	resp := h.Handle(context.Background(), []byte(`{"version":1,"id":"s","action":"get_status","arguments":{}}`))
	h.Close()
	b, _ := Encode(resp)
	if !resp.Success || !bytes.Contains(b, []byte(`"revision":"acme-rev-3"`)) {
		t.Fatalf("get_status: %s", b)
	}
	for ev, err := range decisionlog.Read(cfg.DecisionLog.Path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Bundles["acme"].Revision != "acme-rev-3" {
			t.Fatalf("%s event bundles %v", ev.Phase, ev.Bundles)
		}
	}
}

func TestUnsignedOrTamperedBundleIsRefused(t *testing.T) {
	key := bundletest.NewKey(t)
	mods := policy.Embedded().Modules
	tampered := map[string]string{}
	for k, v := range mods {
		tampered[k] = v
	}
	tampered["workspace.rego"] = strings.Replace(tampered["workspace.rego"], "not p.inside", "false", 1)
	signed := bundletest.Build(t, mods, "r", &key)
	flipped := append([]byte(nil), signed...)
	flipped[len(flipped)-20] ^= 0x01
	for name, b := range map[string][]byte{
		"unsigned":         bundletest.Build(t, mods, "r", nil),
		"tampered":         bundletest.Tampered(t, mods, tampered, "r", key),
		"one byte changed": flipped,
	} {
		t.Run(name, func(t *testing.T) {
			cfg := bundleConfig(t, b, key)
			if h, err := Start(context.Background(), Options{Config: cfg, Channel: ChannelCLI, HostLog: os.Stderr}); err == nil {
				h.Close()
				t.Fatal("the host started with a bad bundle")
			}
		})
	}
	cfg := bundleConfig(t, signed, key)
	cfg.Policy.BundlePublicKey = ""
	if _, err := Start(context.Background(), Options{Config: cfg, Channel: ChannelCLI}); err == nil {
		t.Fatal("the host read a bundle without a key to verify it")
	}
}
