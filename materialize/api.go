package materialize

// API CONTRACT (written by the lead; the materialize helper owns this
// package and replaces this file with real code, keeping these names).
//
//   type Options struct {
//       ContextWords  int // total word budget of context.md, default 3000
//       WindowHours   int // recent-changes window, default 48
//       WindowEvents  int // at least this many recent events, default 20
//   }
//   func DefaultOptions() Options
//
//   type Attr struct{ Key, Value string }
//   type Node struct {
//       Name, Type, Status, Created, LastEvent string
//       Attrs []Attr            // ordered, deterministic
//   }
//   type Edge struct {
//       From, To, Relation, Created string
//       Attrs []Attr
//   }
//   type Graph struct {
//       Nodes []*Node; Edges []*Edge
//       Horizon string          // last event ID replayed ("" when none)
//       Updated string          // horizon event's timestamp as written
//   }
//   func (g *Graph) Node(name string) *Node   // lookup by canonical name
//
//   // Change records what one event did to the graph (for `memsys show`).
//   type Change struct {
//       Event string
//       NodesAdded, NodesUpdated []string
//       EdgesAdded, EdgesUpdated []string // "from -relation-> to"
//       Notes []string                    // awkward cases, e.g. "modify before create: node created"
//   }
//
//   // Replay applies events in order. Pure and deterministic.
//   func Replay(events []parse.Event) (*Graph, []Change)
//   func RenderGraph(g *Graph) []byte
//   func ParseGraph(src []byte) (*Graph, error)   // reads graph.md back
//
//   type Context struct { ... sections ... }
//   func BuildContext(events []parse.Event, g *Graph, opt Options) *Context
//   func RenderContext(c *Context) []byte
