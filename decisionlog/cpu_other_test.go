//go:build !unix

package decisionlog

// processCPU is not measured here: the metric reads 0.
func processCPU() int64 { return 0 }
