// Package mcpclient tests `memsys mcp` over stdio against the built
// binary with clients nobody here wrote: the official Go SDK's client
// and the official TypeScript SDK's Client (client.mjs, a small node
// project whose package-lock.json pins @modelcontextprotocol/sdk;
// .ci/run installs it with npm ci). It also holds the 1,000-call test:
// mixed reads and appends in one server process while a second process
// appends through the CLI, with the server's memory measured.
package mcpclient
