package checks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPageLevelNamesCatalogChecks(t *testing.T) {
	t.Parallel()
	for id := range pageLevel {
		require.NotNil(t, Lookup(id), "page-level check %q is not in the catalog", id)
	}
}
