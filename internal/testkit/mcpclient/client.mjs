// Drives `memsys mcp` with the official TypeScript MCP SDK client, as
// an agent host would: list the tools, call each, read resources, send
// malformed calls, and run an agent's whole lifecycle through MCP
// alone. Run by client_test.go with MEMSYS_BIN (the built binary) and
// MEMSYS_ROOT (a copy of examples/multi-agent). Exits 1 with a message
// on the first failed check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fs from "node:fs";

const bin = process.env.MEMSYS_BIN;
const root = process.env.MEMSYS_ROOT;
if (!bin || !root) {
  console.error("set MEMSYS_BIN and MEMSYS_ROOT");
  process.exit(2);
}

function check(ok, what) {
  if (!ok) {
    console.error("FAIL: " + what);
    process.exit(1);
  }
  console.log("ok: " + what);
}

function text(res) {
  return (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
}

// expectError calls a tool that must fail: an error result, or a
// JSON-RPC error for arguments the schema rejects. Either way the
// message must contain want.
async function expectError(client, name, args, want) {
  let msg = "";
  try {
    const res = await client.callTool({ name, arguments: args });
    check(res.isError === true, `${name} ${JSON.stringify(args)} is an error result`);
    msg = text(res);
  } catch (e) {
    msg = String(e.message || e);
  }
  check(msg.includes(want), `${name} error ${JSON.stringify(msg)} mentions ${JSON.stringify(want)}`);
}

const client = new Client({ name: "memsys-ts-test", version: "1.0.0" });
const transport = new StdioClientTransport({
  command: bin,
  args: ["-C", root, "mcp", "--agent", "ts-agent"],
  env: { ...process.env, MEMSYS_AGENT: "" },
  stderr: "inherit",
});
await client.connect(transport);

// Tools: every one listed, with a one-line description and schemas.
const expected = (process.env.MEMSYS_TOOLS || "").split(",").filter(Boolean);
const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check(JSON.stringify(names) === JSON.stringify([...expected].sort()), `tools are ${names.join(", ")}`);
for (const t of tools) {
  check(t.description && !t.description.includes("\n"), `${t.name} has a one-line description`);
  check(t.inputSchema && t.inputSchema.type === "object" && t.outputSchema, `${t.name} has input and output schemas`);
}

// Annotations, as the TypeScript client parses them: a read-only tool
// and a writing one (docs/agents.md has every tool's hints).
{
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const hints = (name) => JSON.stringify(byName[name].annotations);
  const status = byName.memsys_status.annotations || {};
  check(status.readOnlyHint === true && status.destructiveHint === false && status.idempotentHint === true && status.openWorldHint === false,
    `memsys_status is annotated read-only, idempotent, closed-world: ${hints("memsys_status")}`);
  const append = byName.memsys_append.annotations || {};
  check(append.readOnlyHint === false && append.destructiveHint === false && append.idempotentHint === false && append.openWorldHint === false,
    `memsys_append is annotated as an additive, non-idempotent write: ${hints("memsys_append")}`);
  const archive = byName.memsys_archive.annotations || {};
  check(archive.readOnlyHint === false && archive.destructiveHint === true && archive.openWorldHint === false,
    `memsys_archive is annotated destructive: ${hints("memsys_archive")}`);
}

// The agent's lifecycle, through MCP alone.
// BOOT: status, then context.
{
  const st = await client.callTool({ name: "memsys_status", arguments: {} });
  check(!st.isError && st.structuredContent.last_event.id === "evt-019", "boot: memsys_status sees evt-019");
}
const ctx = await client.callTool({ name: "memsys_context", arguments: {} });
check(!ctx.isError && ctx.structuredContent.horizon === "evt-019" && ctx.structuredContent.fresh, "boot: memsys_context is fresh at evt-019");
check(text(ctx).includes("## Active Mission") || text(ctx).length > 100, "boot: context text is readable");

// WORK: recall what is about to be touched, then record the action.
const rc = await client.callTool({ name: "memsys_recall", arguments: { entities: ["payments api"], budget: 300 } });
check(!rc.isError && rc.structuredContent.entities[0].name === "payments_api", "work: memsys_recall finds payments_api by its canonical key");
check(rc.structuredContent.words <= 300, "work: the pack keeps to its budget");

// The log edited on disk between two calls, in place (the horizon
// unchanged): the next recall serves the edit, not graph.md's old row.
{
  const log = root + "/CHANGELOG.md";
  const before = fs.readFileSync(log, "utf8");
  const path = (r) => (r.structuredContent.entities[0].attrs.find((a) => a.key === "path") || {}).value;
  fs.writeFileSync(log, before.replace("- path: services/payments/\n", "- path: services/billing/\n"));
  const edited = await client.callTool({ name: "memsys_recall", arguments: { entities: ["payments_api"] } });
  check(!edited.isError && path(edited) === "services/billing/", `recall after an in-place edit of the log serves it: ${path(edited)}`);
  fs.writeFileSync(log, before);
  const back = await client.callTool({ name: "memsys_recall", arguments: { entities: ["payments_api"] } });
  check(!back.isError && path(back) === "services/payments/", "recall after the edit is undone");
}
const ap = await client.callTool({
  name: "memsys_append",
  arguments: {
    type: "modify",
    scope: "payments_api",
    summary: "Refunds reuse the charge idempotency cache",
    details: [{ key: "entity", value: "payments_api" }, { key: "changes", value: "shared cache", children: [{ key: "files", value: "cache.py" }] }],
    refs: ["evt-015"],
    tags: ["refunds"],
  },
});
check(!ap.isError && ap.structuredContent.id === "evt-020" && ap.structuredContent.agent === "ts-agent", "work: memsys_append wrote evt-020 as ts-agent");

// Each other tool once.
{
  const sh = await client.callTool({ name: "memsys_show", arguments: { id: "evt-020" } });
  check(!sh.isError && sh.structuredContent.summary === "Refunds reuse the charge idempotency cache", "memsys_show reads the new event back");
  // The text is memsys show's (where the event is, what it changed,
  // who refers to it; a superseded event or a loop says so), not the
  // event's text alone.
  check(text(sh).startsWith("CHANGELOG.md:") && text(sh).includes("\nGraph changes:\n") && text(sh).includes("### evt-020 |"),
    "memsys_show's text is memsys show's");
}
{
  const lg = await client.callTool({ name: "memsys_log", arguments: { type: ["modify"], agent: "ts-agent" } });
  check(!lg.isError && lg.structuredContent.events.length === 1, "memsys_log filters by type and agent");
  const last = await client.callTool({ name: "memsys_log", arguments: { limit: 2 } });
  check(!last.isError && last.structuredContent.events.length === 2 && last.structuredContent.events[1].id === "evt-020" &&
    last.structuredContent.matched === 20, "memsys_log limit: the last 2 of 20 events");
  // The open loops memsys_status counts are the ones memsys_log lists.
  const st = await client.callTool({ name: "memsys_status", arguments: {} });
  const open = await client.callTool({ name: "memsys_log", arguments: { open: true } });
  check(!open.isError && open.structuredContent.matched === st.structuredContent.open_loops,
    `memsys_log open lists the ${st.structuredContent.open_loops} open loops memsys_status counts`);
}
{
  const li = await client.callTool({ name: "memsys_lint", arguments: {} });
  check(!li.isError && li.structuredContent.diagnostics.some((d) => d.rule === "MS203"), "memsys_lint reports the stale context.md as data");
}
{
  const ar = await client.callTool({ name: "memsys_archive", arguments: { dry_run: true } });
  check(!ar.isError && ar.structuredContent.due === false && ar.structuredContent.dry_run === true &&
    text(ar).startsWith("nothing to archive"), "memsys_archive dry_run: not due at 20 events");
}
const gr = await client.callTool({ name: "memsys_graph", arguments: { format: "mermaid" } });
check(!gr.isError && text(gr).startsWith("flowchart LR"), "memsys_graph draws Mermaid");
const gj = await client.callTool({ name: "memsys_graph", arguments: { status: ["deprecated"] } });
check(!gj.isError && gj.structuredContent.graph.nodes.length === 1, "memsys_graph filters by status");

// Resources.
const { resources } = await client.listResources();
check(resources.some((r) => r.uri === "memsys://context.md"), "resources list context.md");
const ev = await client.readResource({ uri: "memsys://event/evt-020" });
check(ev.contents[0].text.startsWith("### evt-020 |"), "memsys://event/evt-020 reads the new event");
const agents = await client.readResource({ uri: "memsys://AGENTS.md" });
check(agents.contents[0].text.includes("Memory System Protocol"), "memsys://AGENTS.md reads AGENTS.md");
let missing = false;
try {
  await client.readResource({ uri: "memsys://event/evt-999" });
} catch (e) {
  missing = true;
}
check(missing, "memsys://event/evt-999 is an error");

// Malformed calls: error results with the CLI's messages; the server lives on.
await expectError(client, "memsys_append", { type: "bogus", scope: "x", summary: "y" }, 'unknown event type "bogus"');
await expectError(client, "memsys_append", { type: "fix", scope: "x", summary: "y", refs: ["evt-999"] }, 'refs "evt-999" names no event');
await expectError(client, "memsys_append", { type: 42 }, "type");
await expectError(client, "memsys_recall", { entities: ["paymnts_api"] }, 'nearest: "payments_api"');
await expectError(client, "memsys_recall", { entities: "stripe" }, "entities");
await expectError(client, "memsys_graph", { format: "png" }, 'unknown format "png"');
await expectError(client, "memsys_nonexistent", {}, "memsys_nonexistent");
// The errors an agent triggers most: a missing key (the SDK's schema),
// a malformed time, a limit below 1 (whose advice is MCP's default of
// 100, not the CLI's "every event").
await expectError(client, "memsys_append", { type: "fix", scope: "x" }, "summary");
await expectError(client, "memsys_append", { type: "fix", scope: "x", summary: "y", time: "2026-03-01 25:00" }, 'is not "YYYY-MM-DD HH:MM"');
// A string cut inside a character (JavaScript strings are UTF-16):
// refused, not written to the log with U+FFFD for the half emoji.
await expectError(client, "memsys_append", { type: "fix", scope: "x", summary: "cut \ud83d" }, "half of a UTF-16 surrogate pair");
// Details nested deeper than the SDK decodes: an error, and the server
// lives on (the SDK alone ended the session, failing every later check).
{
  let deep = { key: "leaf", value: "v" };
  for (let i = 0; i < 600; i++) deep = { key: "k", value: "v", children: [deep] };
  await expectError(client, "memsys_append", { type: "fix", scope: "x", summary: "y", details: [deep] }, "more than 1000 levels deep");
}
// A number JSON holds and an int does not: memsys words, not Go types.
await expectError(client, "memsys_log", { limit: 1e20 }, "memsys: limit 100000000000000000000 is out of range");
await expectError(client, "memsys_log", { limit: 0 }, "memsys: limit 0: must be at least 1 (leave it out for the last 100, or set a larger limit for more)");
// An empty filter, as a host that fills every parameter sends it: refused
// as memsys log refuses --agent '', not read as no filter (which listed
// the whole history as if it matched).
await expectError(client, "memsys_log", { agent: "" }, "memsys: agent is empty: give it a value, or leave the parameter out");
await expectError(client, "memsys_log", { type: [] }, "memsys: type is empty: give it a value, or leave the parameter out");
await expectError(client, "memsys_log", { entity: " " }, 'memsys: entity " " is empty: name a node of the graph');
// A megabyte where a number belongs is quoted back as an excerpt.
{
  const res = await client.callTool({ name: "memsys_log", arguments: { limit: "x".repeat(1 << 20) } });
  check(res.isError && text(res).length < 400 && text(res).includes("xxx…"), `memsys_log with a 1 MB limit: a short error (${text(res).length} characters)`);
}

// SHUTDOWN: a handoff, then regen. Its details are the object shape
// append --json takes (the first append sent the list), keys not in
// sorted order: the bullets keep the order sent.
const ho = await client.callTool({
  name: "memsys_append",
  arguments: { type: "handoff", scope: "build refund endpoint", summary: "Refund endpoint ready for review", details: { to_agent: "reviewer", from_agent: "ts-agent" } },
});
check(!ho.isError && ho.structuredContent.id === "evt-021", `shutdown: memsys_append wrote the handoff evt-021 with details as an object: ${text(ho)}`);
{
  const sh = await client.callTool({ name: "memsys_show", arguments: { id: "evt-021" } });
  check(!sh.isError && JSON.stringify(sh.structuredContent.details.map((d) => d.key)) === '["to_agent","from_agent"]',
    "the object's details are bullets in the order sent");
}
const rg = await client.callTool({ name: "memsys_regen", arguments: {} });
check(!rg.isError && rg.structuredContent.written.includes(".memory/context.md"), "shutdown: memsys_regen rewrote context.md");
const after = await client.callTool({ name: "memsys_context", arguments: {} });
check(after.structuredContent.fresh && after.structuredContent.horizon === "evt-021", "after shutdown context.md is fresh at evt-021");

await client.close();
console.log("PASS");
