//go:build !race

package worker

// childMemory is the data memory of the tests' children.
const childMemory = 256 << 20
