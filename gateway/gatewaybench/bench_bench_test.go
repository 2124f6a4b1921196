package gatewaybench

import (
	"context"
	"net/http"
	"testing"
)

// BenchmarkTarget is one exchange at a time through each target, whole and streamed (64 chunks without
// pauses): the means behind the report's concurrency-1 figures, and a way to profile a target
// (go test -bench 'Target/stream/warden$' -cpuprofile cpu.out).
func BenchmarkTarget(b *testing.B) {
	o := Options{}
	if err := o.fill(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	bn, err := start(ctx, o, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer bn.close()
	m := &measurer{o: o, up: bn.up, client: &http.Client{Transport: o.dialing(tunedTransport())}}
	for _, t := range bn.targets {
		b.Run("whole/"+t.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := m.whole(ctx, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, t := range bn.targets {
		b.Run("stream/"+t.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := m.stream(ctx, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWire is BenchmarkTarget for every wire format: what each format's codec and stream guard cost
// against the bare proxy (go test -bench 'Wire/anthropic/stream').
func BenchmarkWire(b *testing.B) {
	ctx := context.Background()
	for _, name := range Wires() {
		o := Options{Wire: name}
		if err := o.fill(); err != nil {
			b.Fatal(err)
		}
		bn, err := start(ctx, o, nil)
		if err != nil {
			b.Fatal(err)
		}
		m := &measurer{o: o, up: bn.up, client: &http.Client{Transport: o.dialing(tunedTransport())}}
		for _, t := range bn.targets {
			b.Run(name+"/whole/"+t.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := m.whole(ctx, t); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/stream/"+t.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := m.stream(ctx, t); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		bn.close()
	}
}
