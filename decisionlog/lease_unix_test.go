//go:build unix

package decisionlog

import (
	"os"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A Log keeps the file lock for a lease after an append, and gives it up
// when the lease ends: another process can then take it. Once it has met
// another writer, it keeps no lease.
func TestLockLeaseEnds(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: time.Hour})
	defer l.Close()
	writePairs(t, l, 3)
	other, err := os.OpenFile(path+".lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// Liveness, not a timing: the lock must become free while l is idle.
	deadline := time.Now().Add(10 * time.Second)
	for unix.Flock(int(other.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			t.Fatal("an idle Log still holds the file lock")
		}
		time.Sleep(time.Millisecond)
	}
	// Held by another, the lock keeps the Log waiting; its append goes
	// through once it is released, and the chain stays whole.
	done := make(chan error, 1)
	go func() {
		ev := sampleEvent(9)
		done <- l.WriteDecision(t.Context(), ev)
	}()
	select {
	case err := <-done:
		t.Fatalf("the append did not wait for the lock another held: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	unix.Flock(int(other.Fd()), unix.LOCK_UN)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Having met another writer, the Log keeps no lease: the lock is
	// free as soon as each append returns.
	for i := range 20 {
		if err := l.WriteDecision(t.Context(), sampleEvent(10+i)); err != nil {
			t.Fatal(err)
		}
		if err := unix.Flock(int(other.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			t.Fatalf("append %d: the Log kept the lock after meeting another writer: %v", i, err)
		}
		unix.Flock(int(other.Fd()), unix.LOCK_UN)
	}
	l.Close()
	if rep, err := VerifyFile(path); err != nil || !rep.OK() || rep.LastSeq != 27+contexts(t, path) {
		t.Errorf("VerifyFile = %+v, %v; want intact with 27 events", rep, err)
	}
}

// Sync gives up a lease before its fsync, so that no other writer waits
// for the lock through it.
func TestSyncEndsTheLease(t *testing.T) {
	l, path := openTemp(t, Options{SyncInterval: time.Hour})
	defer l.Close()
	writePairs(t, l, 1)
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(path+".lock", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := unix.Flock(int(other.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatalf("the lock is held after Sync: %v", err)
	}
}

// A Log that appends without pause still lets go of the lock: another
// Log on the file, waiting for it, gets on while the first goes on
// appending (this fails when a lease never ends), and the chain they make
// together verifies.
func TestLeasesDoNotStarve(t *testing.T) {
	a, path := openTemp(t, Options{SyncInterval: time.Hour})
	b, err := Open(path, Options{SyncInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	bDone := make(chan struct{})
	var aPairs int
	var wg sync.WaitGroup
	wg.Go(func() {
		// Liveness, not a timing: give up after a long while.
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); aPairs++ {
			select {
			case <-bDone:
				return
			default:
			}
			ev := sampleEvent(aPairs)
			if err := a.WriteDecision(t.Context(), ev); err != nil {
				t.Error(err)
				return
			}
		}
		t.Error("a Log appending without pause kept the other waiting")
	})
	writePairs(t, b, 50)
	close(bDone)
	wg.Wait()
	a.Close()
	b.Close()
	if rep, err := VerifyFile(path); err != nil || !rep.OK() || rep.LastSeq != uint64(aPairs+100)+contexts(t, path) {
		t.Errorf("VerifyFile = %+v, %v; want intact with %d events", rep, err, aPairs+100)
	}
}
