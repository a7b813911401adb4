// SPDX-License-Identifier: GPL-2.0
// A Go service of the demo's production host, shipped as Go services are:
// built with -ldflags='-s -w', no symbols, no debuginfo anywhere.  It
// spends its time in its own functions: a handler's method, a generic
// reduction and a hash loop, for a number of seconds (its argument).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

type handler struct{ buf []uint64 }

//go:noinline
func (h *handler) serve(n uint64) uint64 {
	var s uint64
	for i := range h.buf {
		h.buf[i] = h.buf[i]*6364136223846793005 + n
		s ^= h.buf[i] >> 17
	}
	return s
}

//go:noinline
func reduce[T uint64 | uint32](v []T) T {
	var s T
	for _, x := range v {
		s = s*31 + x
	}
	return s
}

//go:noinline
func hashLoop(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h = (h ^ uint64(i)) * 1099511628211
	}
	return h
}

func main() {
	secs := 2.0
	if len(os.Args) > 1 {
		if v, err := strconv.ParseFloat(os.Args[1], 64); err == nil {
			secs = v
		}
	}
	h := &handler{buf: make([]uint64, 4096)}
	v := make([]uint64, 4096)
	var sum uint64
	end := time.Now().Add(time.Duration(secs * float64(time.Second)))
	for n := uint64(0); time.Now().Before(end); n++ {
		sum += h.serve(n) + reduce(v) + hashLoop(20000)
		v[n%4096] = sum
	}
	fmt.Println(sum != 1)
}
