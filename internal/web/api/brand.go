package api

import (
	"strings"

	"github.com/geoscan/geoscan/internal/web/apierror"
)

// brandAliases reads the optional brand_aliases of a create request:
// trimmed, blanks refused, duplicates (ignoring case) and the brand name
// itself dropped.
func brandAliases(in *[]string, brand string) ([]string, error) {
	out := []string{}
	if in == nil {
		return out, nil
	}
	seen := map[string]bool{strings.ToLower(brand): true}
	for _, a := range *in {
		a = strings.Join(strings.Fields(a), " ")
		if a == "" {
			return nil, apierror.New(apierror.CodeInvalidParameter, "brand_aliases", "brand_aliases must not contain blank names.")
		}
		if k := strings.ToLower(a); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// aliasList is a stored alias list for a response.
func aliasList(list []string) *[]string {
	if list == nil {
		list = []string{}
	}
	return &list
}
