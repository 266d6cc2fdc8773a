// Package ledger moves memory between memsys's markdown log and the
// JSONL event ledgers other memory systems keep (seed 000's
// memory/ledger.jsonl: ts, id, type, priority, content, entity, tags,
// source, session, related, supersedes, status).
//
// Export writes every event, archive first, as one JSON object a line.
// Import reads such a file and appends one event a line, in order,
// all or nothing, mapping types and fields by the table in
// docs/agents.md: a field with no place in the markdown format becomes
// a detail, so nothing is dropped. An export imported into an empty
// memory and exported again gives the same bytes.
package ledger
