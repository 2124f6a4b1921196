package hosts_test

import (
	"testing"

	"github.com/agentwarden/warden/internal/hosts"
)

func TestPrivate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true}, {"127.1", true}, {"2130706433", true}, {"0x7f.0.0.1", true}, {"0177.0.0.1", true},
		{"[::1]", true}, {"::ffff:127.0.0.1", true}, {"127.0.0.1.", true}, {"localhost", true}, {"LOCALHOST.", true},
		{"app.localhost", true}, {"10.0.0.8", true}, {"172.16.5.4", true}, {"192.168.1.1", true}, {"169.254.169.254", true},
		{"fe80::1%eth0", true}, {"fd00::1", true}, {"0.0.0.0", true}, {"0", true}, {"metadata.google.internal", true},
		{"metadata", true}, {"instance-data.ec2.internal", true},
		{"api.github.com", false}, {"8.8.8.8", false}, {"2001:4860:4860::8888", false}, {"example.com.", false}, {"172.32.0.1", false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			if got := hosts.Private(tt.host); got != tt.want {
				t.Errorf("Private(%q) = %v, want %v", tt.host, got, tt.want)
			}
		})
	}
}
