package assets

import (
	"net/url"
	"path"
)

// urlName returns the last element of an escaped URL path, unescaped.
func urlName(escapedPath string) string {
	name, err := url.PathUnescape(path.Base(escapedPath))
	if err != nil {
		return ""
	}
	return name
}
