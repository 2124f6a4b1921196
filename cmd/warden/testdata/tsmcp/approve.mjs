// An MCP client written with the official TypeScript SDK that takes URL-mode elicitation: it starts the
// stdio server named by its arguments (`warden mcp -- …` in cmd/warden's tests), calls a tool a guardrail
// asks a person about, and when Warden sends it the approval page, plays the person: it approves the
// request through the admin listener's API (the page's address with /api in front, the token in
// WARDEN_ADMIN_TOKEN) and accepts the elicitation. It prints what it read as one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-approver", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
const out = { elicitations: [] };
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  const p = req.params;
  out.elicitations.push({ mode: p.mode, url: p.url, id: p.elicitationId });
  const page = new URL(p.url);
  const api = new URL(page.pathname.replace(/^\/approvals\//, "/api/approvals/") + "/approve", page);
  const res = await fetch(api, {
    method: "POST",
    headers: { Authorization: "Bearer " + process.env.WARDEN_ADMIN_TOKEN, "Content-Type": "application/json" },
    body: JSON.stringify({ note: "approved from the TypeScript client" }),
  });
  out.approved = res.status;
  return { action: "accept" };
});
try {
  await client.connect(transport);
  const r = await client.callTool({ name: "run_command", arguments: { command: "deploy --env prod" } });
  out.call = { isError: !!r.isError, text: r.content.map((c) => c.text ?? "").join("") };
  await client.close();
} catch (e) {
  out.fatal = String(e && e.stack ? e.stack : e);
}
console.log(JSON.stringify(out));
