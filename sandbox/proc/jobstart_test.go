package proc

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// recordingStarter is a jobStarter that records its steps and fails the
// steps named in fail.
type recordingStarter struct {
	fail  map[string]bool
	calls []string
}

func (r *recordingStarter) step(name string) error {
	r.calls = append(r.calls, name)
	if r.fail[name] {
		return errors.New(name + " failed")
	}
	return nil
}

func (r *recordingStarter) startSuspended() error { return r.step("start") }
func (r *recordingStarter) assign() error         { return r.step("assign") }
func (r *recordingStarter) resume() error         { return r.step("resume") }
func (r *recordingStarter) kill() error           { return r.step("kill") }

func TestStartInJob(t *testing.T) {
	tests := []struct {
		name    string
		fail    []string
		want    []string
		wantErr bool
	}{
		{"success resumes once after assign", nil, []string{"start", "assign", "resume"}, false},
		{"failed start kills and never assigns or resumes", []string{"start"}, []string{"start", "kill"}, true},
		{"failed assign kills and never resumes", []string{"assign"}, []string{"start", "assign", "kill"}, true},
		{"failed resume kills", []string{"resume"}, []string{"start", "assign", "resume", "kill"}, true},
		{"failed assign and kill never resumes", []string{"assign", "kill"}, []string{"start", "assign", "kill"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recordingStarter{fail: map[string]bool{}}
			for _, f := range tt.fail {
				r.fail[f] = true
			}
			err := startInJob(r)
			if !slices.Equal(r.calls, tt.want) {
				t.Errorf("steps %v, want %v", r.calls, tt.want)
			}
			if (err != nil) != tt.wantErr {
				t.Errorf("err = %v, want error %v", err, tt.wantErr)
			}
			checkNeverResumedOutsideJob(t, r.calls)
		})
	}
}

// checkNeverResumedOutsideJob fails t unless every resume in calls comes
// after an assign and is the only one, and a run that ended without a
// resume ended with a kill.
func checkNeverResumedOutsideJob(t *testing.T, calls []string) {
	t.Helper()
	resume := slices.Index(calls, "resume")
	switch {
	case resume >= 0 && !slices.Contains(calls[:resume], "assign"):
		t.Errorf("steps %v: resumed before the child was assigned", calls)
	case resume >= 0 && slices.Contains(calls[resume+1:], "resume"):
		t.Errorf("steps %v: resumed twice", calls)
	case resume < 0 && calls[len(calls)-1] != "kill":
		t.Errorf("steps %v: a child left suspended outside the job is not killed", calls)
	}
}

func TestStartInJobReportsStepAndKillErrors(t *testing.T) {
	r := &recordingStarter{fail: map[string]bool{"resume": true, "kill": true}}
	err := startInJob(r)
	for _, want := range []string{"resume failed", "kill failed"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to say %q", err, want)
		}
	}
}
