package recall

import (
	"os"
	"testing"

	"github.com/memsys/memsys/internal/testkit/usercache"
)

// TestMain keeps the history caches of the memories these tests make
// outside a repository out of the user's cache folder.
func TestMain(m *testing.M) { os.Exit(usercache.Isolated(m).Run()) }
