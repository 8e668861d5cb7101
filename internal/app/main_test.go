package app_test

import (
	"os"
	"testing"

	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	testsite.RemoveTempCAFiles()
	os.Exit(code)
}
