package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/app/recall"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// The resources: the three files an agent reads at boot, and each event
// by ID.
var files = []struct{ uri, rel, desc string }{
	{"memsys://context.md", parse.ContextFile, "L3 narrative: what matters now (read at boot; see memsys_context for a regenerated copy when stale)"},
	{"memsys://graph.md", parse.GraphFile, "L2 knowledge graph: nodes and edges materialized from the log"},
	{"memsys://AGENTS.md", parse.AgentsFile, "L0 behavioural core: the rules, read at boot"},
}

// EventURIPrefix starts an event's URI: memsys://event/evt-012.
const EventURIPrefix = "memsys://event/"

func (h *handlers) resources(s *mcp.Server) {
	for _, f := range files {
		f := f
		s.AddResource(&mcp.Resource{URI: f.uri, Name: f.rel, Description: f.desc, MIMEType: "text/markdown"},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				b, err := workspace.ReadFile(h.cfg.Root, f.rel)
				if errors.Is(err, fs.ErrNotExist) {
					return nil, mcp.ResourceNotFoundError(req.Params.URI)
				}
				if err != nil {
					return nil, h.resourceErr(err)
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: f.uri, MIMEType: "text/markdown", Text: string(b)}}}, nil
			})
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: EventURIPrefix + "{id}", Name: "event",
		Description: "one event of the log or the archive, as written, e.g. memsys://event/evt-012", MIMEType: "text/markdown"},
		h.event)
}

func (h *handlers) event(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id := strings.TrimPrefix(uri, EventURIPrefix)
	if _, ok := parse.EventNum(id); !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	src, err := recall.OpenEvents(h.cfg.Root)
	if err != nil {
		return nil, h.resourceErr(err)
	}
	e, ok := src.Event(id)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: e.Text}}}, nil
}

// resourceErr is a resource read's failure other than a missing file
// (a file memsys cannot read, a log it cannot parse) as a JSON-RPC
// internal error with memsys's message. A plain error reached the
// client with code 0, which JSON-RPC does not define.
func (h *handlers) resourceErr(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: h.toolErr(err).Error()}
}
