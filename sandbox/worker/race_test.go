//go:build race

package worker

// childMemory is the data memory of the tests' children: none under the
// race detector, whose own shadow memory does not fit under a data limit.
const childMemory = 0
