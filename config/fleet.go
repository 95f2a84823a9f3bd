package config

import (
	"fmt"
	"net/url"
)

// Fleet configures fleet mode: the policy bundle comes from an OPA bundle
// server and the decision log is shipped to a collector, with OPA's
// bundle and decision-log protocols. Member names follow OPA's
// configuration (services, bundles, decision_logs).
type Fleet struct {
	// Services are the HTTP servers the bundle and the logs go through.
	Services []Service `json:"services,omitempty"`
	// Bundle fetches policy.bundle from a service; nil: no fetching.
	Bundle *FleetBundle `json:"bundle,omitempty"`
	// DecisionLogs ships the decision log to a service; nil: no shipping.
	DecisionLogs *FleetDecisionLogs `json:"decision_logs,omitempty"`
}

// Service is one OPA service: a base URL and its credentials.
type Service struct {
	Name        string      `json:"name"`
	URL         string      `json:"url"`
	Credentials Credentials `json:"credentials,omitzero"`
}

// Credentials authenticate requests to a service.
type Credentials struct {
	// Bearer sends `Authorization: <scheme> <token>`.
	Bearer *Bearer `json:"bearer,omitempty"`
}

// Bearer is OPA's bearer-token credential. The token is read from
// TokenPath on every request, so it can be rotated in place.
type Bearer struct {
	TokenPath string `json:"token_path"`
	// Scheme defaults to "Bearer".
	Scheme string `json:"scheme,omitempty"`
}

// FleetBundle is OPA's bundle download configuration for the one bundle
// DeskBridge decides with.
type FleetBundle struct {
	// Service names the service the bundle is downloaded from.
	Service string `json:"service"`
	// Resource is the bundle's path under the service URL.
	Resource string `json:"resource"`
	// Polling sets the delay between downloads.
	Polling Polling `json:"polling,omitzero"`
}

// Polling is OPA's bundle polling configuration.
type Polling struct {
	// MinDelaySeconds and MaxDelaySeconds bound the random delay between
	// two polls (defaults 60 and 120, as OPA's).
	MinDelaySeconds int64 `json:"min_delay_seconds,omitempty"`
	MaxDelaySeconds int64 `json:"max_delay_seconds,omitempty"`
	// LongPollingTimeoutSeconds, when set, asks the server to hold the
	// request until the bundle changes (Prefer: wait=N).
	LongPollingTimeoutSeconds int64 `json:"long_polling_timeout_seconds,omitempty"`
}

// FleetDecisionLogs is OPA's decision_logs configuration.
type FleetDecisionLogs struct {
	// Service names the collector's service.
	Service string `json:"service"`
	// Resource is the upload path under the service URL (default /logs).
	Resource string `json:"resource,omitempty"`
	// Reporting sets the upload cadence and size.
	Reporting Reporting `json:"reporting,omitzero"`
}

// Reporting is OPA's decision_logs.reporting configuration.
type Reporting struct {
	// MinDelaySeconds and MaxDelaySeconds bound the random delay between
	// two uploads (defaults 300 and 600, as OPA's).
	MinDelaySeconds int64 `json:"min_delay_seconds,omitempty"`
	MaxDelaySeconds int64 `json:"max_delay_seconds,omitempty"`
	// UploadSizeLimitBytes caps the JSON of one upload before gzip
	// (default 32768, as OPA's); a bigger single event goes alone.
	UploadSizeLimitBytes int64 `json:"upload_size_limit_bytes,omitempty"`
}

// Enabled reports whether anything is configured for fleet mode.
func (f *Fleet) Enabled() bool { return f.Bundle != nil || f.DecisionLogs != nil }

// LookupService returns the service named name.
func (f *Fleet) LookupService(name string) (Service, bool) {
	for _, s := range f.Services {
		if s.Name == name {
			return s, true
		}
	}
	return Service{}, false
}

// check validates the fleet member and fills OPA's defaults.
func (f *Fleet) check(p Policy) error {
	seen := map[string]bool{}
	for _, s := range f.Services {
		if s.Name == "" || seen[s.Name] {
			return fmt.Errorf("fleet.services: every service needs a distinct name (%q)", s.Name)
		}
		seen[s.Name] = true
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("fleet.services %q: url %q is not an http(s) URL", s.Name, s.URL)
		}
		if b := s.Credentials.Bearer; b != nil && b.TokenPath == "" {
			return fmt.Errorf("fleet.services %q: credentials.bearer needs token_path", s.Name)
		}
	}
	if b := f.Bundle; b != nil {
		if !seen[b.Service] || b.Resource == "" {
			return fmt.Errorf("fleet.bundle needs a resource and a service named in fleet.services")
		}
		if p.Bundle == "" || p.BundleKeyID == "" || p.BundlePublicKey == "" {
			return fmt.Errorf("fleet.bundle needs policy.bundle, policy.bundle_key_id and policy.bundle_public_key: the fetched bundle is installed there and must be signed")
		}
		if err := delays(&b.Polling.MinDelaySeconds, &b.Polling.MaxDelaySeconds, 60, 120); err != nil {
			return fmt.Errorf("fleet.bundle.polling: %w", err)
		}
	}
	if d := f.DecisionLogs; d != nil {
		if !seen[d.Service] {
			return fmt.Errorf("fleet.decision_logs needs a service named in fleet.services")
		}
		d.Resource = or(d.Resource, "/logs")
		d.Reporting.UploadSizeLimitBytes = or(d.Reporting.UploadSizeLimitBytes, 32768)
		if err := delays(&d.Reporting.MinDelaySeconds, &d.Reporting.MaxDelaySeconds, 300, 600); err != nil {
			return fmt.Errorf("fleet.decision_logs.reporting: %w", err)
		}
	}
	return nil
}

// delays fills OPA's default delays and checks 0 < min <= max.
func delays(lo, hi *int64, defLo, defHi int64) error {
	if *lo == 0 && *hi == 0 {
		*lo, *hi = defLo, defHi
	}
	if *lo <= 0 || *hi < *lo {
		return fmt.Errorf("min_delay_seconds (%d) and max_delay_seconds (%d) must satisfy 0 < min <= max", *lo, *hi)
	}
	return nil
}
