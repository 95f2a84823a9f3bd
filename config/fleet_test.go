package config

import (
	"strings"

	"github.com/go-json-experiment/json"
	"testing"
)

const signedPolicy = `"policy":{"bundle":"/p/b.tar.gz","bundle_key_id":"k","bundle_public_key":"/p/k.pem"}`

func TestFleetValidation(t *testing.T) {
	svc := `"services":[{"name":"acme","url":"https://opa.example.com/v1"}]`
	tests := []struct {
		name, doc, wantErr string
	}{
		{"bundle and logs", `{` + signedPolicy + `,"fleet":{` + svc + `,"bundle":{"service":"acme","resource":"b.tar.gz"},"decision_logs":{"service":"acme"}}}`, ""},
		{"unknown service", `{` + signedPolicy + `,"fleet":{` + svc + `,"bundle":{"service":"other","resource":"b"}}}`, "service named"},
		{"no resource", `{` + signedPolicy + `,"fleet":{` + svc + `,"bundle":{"service":"acme"}}}`, "resource"},
		{"bundle without key", `{"policy":{"bundle":"/p/b.tar.gz"},"fleet":{` + svc + `,"bundle":{"service":"acme","resource":"b"}}}`, "must be signed"},
		{"not http", `{"fleet":{"services":[{"name":"a","url":"file:///etc"}],"decision_logs":{"service":"a"}}}`, "http(s)"},
		{"duplicate service", `{"fleet":{"services":[{"name":"a","url":"http://h"},{"name":"a","url":"http://h"}]}}`, "distinct"},
		{"min over max", `{"fleet":{` + svc + `,"decision_logs":{"service":"acme","reporting":{"min_delay_seconds":9,"max_delay_seconds":3}}}}`, "min <= max"},
		{"bearer without path", `{"fleet":{"services":[{"name":"a","url":"http://h","credentials":{"bearer":{}}}]}}`, "token_path"},
		{"unknown member", `{"fleet":{"bundles":{}}}`, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(strings.ToLower(err.Error()), tt.wantErr)) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestFleetDefaultsAreOPAs(t *testing.T) {
	c, err := Parse([]byte(`{` + signedPolicy + `,"fleet":{"services":[{"name":"a","url":"http://h"}],
		"bundle":{"service":"a","resource":"b"},"decision_logs":{"service":"a"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, d := c.Fleet.Bundle.Polling, c.Fleet.DecisionLogs
	got := []int64{b.MinDelaySeconds, b.MaxDelaySeconds, d.Reporting.MinDelaySeconds, d.Reporting.MaxDelaySeconds, d.Reporting.UploadSizeLimitBytes}
	want := []int64{60, 120, 300, 600, 32768}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("defaults %v, want %v", got, want)
		}
	}
	if d.Resource != "/logs" {
		t.Fatalf("decision_logs.resource %q, want /logs", d.Resource)
	}
}

func TestNoFleetLeavesTheHashAlone(t *testing.T) {
	c, err := Parse([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(mustJSON(t, c)), "fleet") {
		t.Fatal("an empty fleet member is written into data.config (it would change every configuration hash)")
	}
}

func mustJSON(t *testing.T, c *Config) []byte {
	t.Helper()
	b, err := json.Marshal(c, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
