//go:build !unix

package engine

import "errors"

func mkfifo(string) error { return errors.New("no mkfifo") }

func mksock(string) error { return errors.New("no socket files") }
