// Package hosts says whether a URL's host names this machine, its network or the cloud's metadata
// service, in every spelling a resolver or an HTTP client accepts without DNS, so that a tool fetching a URL
// cannot be pointed inward (server-side request forgery) by a model or by text it read. It never resolves
// names: a name that resolves to a private address (DNS rebinding) is not caught here.
package hosts

import (
	"math"
	"net"
	"strconv"
	"strings"
)

// metadataNames are the cloud metadata services' host names.
var metadataNames = map[string]bool{
	"metadata": true, "metadata.google.internal": true, "instance-data": true, "instance-data.ec2.internal": true,
}

// Private reports whether a URL's host is a loopback, private, link-local, unspecified or cloud-metadata
// address, in any spelling a resolver accepts without DNS (127.1, 2130706433, 0x7f.0.0.1, [::1],
// ::ffff:127.0.0.1, a trailing dot, an IPv6 zone), or localhost or a metadata service's name.
func Private(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	h = strings.TrimSuffix(h, ".")
	if i := strings.IndexByte(h, '%'); i >= 0 {
		h = h[:i] // an IPv6 zone: fe80::1%eth0
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || metadataNames[h] {
		return true
	}
	ip := net.ParseIP(h)
	if ip == nil {
		ip = parseLegacyIPv4(h)
	}
	if ip == nil {
		return false
	}
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsUnspecified()
}

// parseLegacyIPv4 reads the inet_aton forms: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x).
func parseLegacyIPv4(s string) net.IP {
	parts := strings.Split(s, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return nil
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" {
			return nil
		}
		v, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return nil
		}
		vals[i] = v
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) && len(vals) < 4 || len(vals) == 4 && last > 255 {
		return nil
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return nil
		}
		n |= v << (24 - 8*i)
	}
	n |= last
	if n > math.MaxUint32 {
		return nil
	}
	return net.IPv4(byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}
