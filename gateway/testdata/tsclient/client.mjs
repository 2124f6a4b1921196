// One call through an official TypeScript SDK to Warden's gateway, for gateway/tsclient_test.go. The case
// is a JSON object on the command line:
//
//   {"format": "chat" | "responses" | "anthropic" | "gemini" | "agents-chat" | "agents-responses",
//    "stream": true | false, "baseURL": "http://127.0.0.1:port"}
//
// It prints one JSON object: whether the SDK's high-level helper read the answer (ok, or the error it threw,
// with its status), what the answer said (text, tool calls by name and command, finish reason), the
// response headers, and the problems found in the raw events (roles, indexes, ids, finish reasons).

import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";

const c = JSON.parse(process.argv[2]);
const out = { ok: false, error: "", errorType: "", status: 0, text: "", calls: [], finish: "", headers: {}, problems: [] };
const problem = (p) => out.problems.push(p);

const bashTool = {
  name: "bash",
  description: "Run a shell command",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};
const prompt = "List the files, then clean up.";

function callOf(name, args) {
  let command = "";
  try {
    command = (typeof args === "string" ? JSON.parse(args) : args)?.command ?? "";
  } catch {
    command = "<arguments that are not JSON>";
  }
  return `${name} ${command}`;
}

function keepHeaders(h) {
  if (!h) return;
  for (const k of ["x-warden-decision", "x-warden-evaluated", "content-type"]) {
    const v = typeof h.get === "function" ? h.get(k) : h[k];
    if (v) out.headers[k] = v;
  }
}

async function chat() {
  const client = new OpenAI({ baseURL: c.baseURL + "/v1", apiKey: "sk-test", maxRetries: 0 });
  const params = {
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: prompt }],
    tools: [{ type: "function", function: bashTool }],
  };
  if (!c.stream) {
    const { data, response } = await client.chat.completions.create(params).withResponse();
    keepHeaders(response.headers);
    const ch = data.choices[0];
    out.text = ch.message.content ?? "";
    out.calls = (ch.message.tool_calls ?? []).map((t) => callOf(t.function.name, t.function.arguments));
    out.finish = ch.finish_reason;
    if (ch.finish_reason === "tool_calls" && out.calls.length === 0) problem("finish_reason tool_calls without a tool call");
    return;
  }
  const stream = client.chat.completions.stream(params);
  const seenRole = new Set();
  let finishes = 0;
  let lastFinish = "";
  stream.on("chunk", (chunk) => {
    for (const ch of chunk.choices ?? []) {
      if (ch.delta?.role) seenRole.add(ch.index);
      if ((ch.delta?.content || ch.delta?.tool_calls) && !seenRole.has(ch.index)) problem(`choice ${ch.index}: content before its role`);
      if (ch.finish_reason) {
        finishes++;
        lastFinish = ch.finish_reason;
      }
    }
  });
  const final = await stream.finalChatCompletion();
  const ch = final.choices[0];
  out.text = ch.message.content ?? "";
  out.calls = (ch.message.tool_calls ?? []).map((t) => callOf(t.function.name, t.function.arguments));
  out.finish = ch.finish_reason;
  if (finishes !== 1) problem(`${finishes} chunks carry a finish_reason, want 1`);
  if (lastFinish === "tool_calls" && out.calls.length === 0) problem("finish_reason tool_calls without a tool call");
}

async function responses() {
  const client = new OpenAI({ baseURL: c.baseURL + "/v1", apiKey: "sk-test", maxRetries: 0 });
  const params = { model: "gpt-4o-mini", input: prompt, tools: [{ type: "function", ...bashTool }] };
  const read = (r) => {
    out.text = r.output_text ?? "";
    out.calls = (r.output ?? []).filter((o) => o.type === "function_call").map((o) => callOf(o.name, o.arguments));
    out.finish = r.status + (r.incomplete_details?.reason ? ":" + r.incomplete_details.reason : "");
  };
  if (!c.stream) {
    const { data, response } = await client.responses.create(params).withResponse();
    keepHeaders(response.headers);
    read(data);
    return;
  }
  const stream = client.responses.stream(params);
  const ids = new Set();
  let seq = -1;
  stream.on("event", (e) => {
    if (e.response?.id) ids.add(e.response.id);
    if (typeof e.sequence_number === "number") {
      if (e.sequence_number <= seq) problem(`sequence_number ${e.sequence_number} after ${seq}`);
      seq = e.sequence_number;
    }
  });
  read(await stream.finalResponse());
  if (ids.size > 1) problem(`${ids.size} response ids in one stream`);
}

async function anthropic() {
  const client = new Anthropic({ baseURL: c.baseURL, apiKey: "sk-ant-test", maxRetries: 0 });
  const params = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user", content: prompt }],
    tools: [{ name: bashTool.name, description: bashTool.description, input_schema: bashTool.parameters }],
  };
  const read = (m) => {
    out.text = m.content.filter((b) => b.type === "text").map((b) => b.text).join("");
    out.calls = m.content.filter((b) => b.type === "tool_use").map((b) => callOf(b.name, b.input));
    out.finish = m.stop_reason ?? "";
    if (m.stop_reason === "tool_use" && out.calls.length === 0) problem("stop_reason tool_use without a tool_use block");
  };
  if (!c.stream) {
    const { data, response } = await client.messages.create(params).withResponse();
    keepHeaders(response.headers);
    read(data);
    return;
  }
  const stream = client.messages.stream(params);
  const open = new Set();
  let next = 0;
  stream.on("streamEvent", (e) => {
    if (e.type === "content_block_start") {
      if (e.index !== next) problem(`content block ${e.index} started, want ${next}`);
      open.add(e.index);
      next = e.index + 1;
    }
    if (e.type === "content_block_delta" && !open.has(e.index)) problem(`delta for block ${e.index}, not open`);
    if (e.type === "content_block_stop") open.delete(e.index);
  });
  read(await stream.finalMessage());
  if (open.size > 0) problem(`blocks left open: ${[...open]}`);
}

async function gemini() {
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: c.baseURL } });
  const params = {
    model: "gemini-2.5-flash",
    contents: prompt,
    config: { tools: [{ functionDeclarations: [bashTool] }] },
  };
  if (!c.stream) {
    const r = await ai.models.generateContent(params);
    out.text = r.text ?? "";
    out.calls = (r.functionCalls ?? []).map((f) => callOf(f.name, f.args));
    out.finish = r.candidates?.[0]?.finishReason ?? "";
    return;
  }
  const stream = await ai.models.generateContentStream(params);
  for await (const chunk of stream) {
    out.text += chunk.text ?? "";
    out.calls.push(...(chunk.functionCalls ?? []).map((f) => callOf(f.name, f.args)));
    const fr = chunk.candidates?.[0]?.finishReason;
    if (fr) out.finish = fr;
  }
}

async function agents(api) {
  const { Agent, run, tool, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } = await import("@openai/agents");
  const { z } = await import("zod");
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ baseURL: c.baseURL + "/v1", apiKey: "sk-test", maxRetries: 0 }));
  setOpenAIAPI(api);
  const bash = tool({
    name: "bash",
    description: bashTool.description,
    parameters: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      out.calls.push(`bash ${command}`); // what the tool was really asked to run
      return "ok";
    },
  });
  const agent = new Agent({ name: "assistant", instructions: "Help.", model: "gpt-4o-mini", tools: [bash] });
  if (!c.stream) {
    const r = await run(agent, prompt, { maxTurns: 4 });
    out.text = typeof r.finalOutput === "string" ? r.finalOutput : JSON.stringify(r.finalOutput ?? "");
    return;
  }
  const r = await run(agent, prompt, { stream: true, maxTurns: 4 });
  for await (const _ of r) {
    // the events are read; run.completed below says whether the stream ended as the SDK expects
  }
  await r.completed;
  out.text = typeof r.finalOutput === "string" ? r.finalOutput : JSON.stringify(r.finalOutput ?? "");
}

const formats = {
  chat,
  responses,
  anthropic,
  gemini,
  "agents-chat": () => agents("chat_completions"),
  "agents-responses": () => agents("responses"),
};

try {
  if (!formats[c.format]) throw new Error(`unknown format ${c.format}`);
  await formats[c.format]();
  out.ok = true;
} catch (e) {
  out.error = `${e?.constructor?.name ?? "Error"}: ${e?.message ?? e}`;
  out.status = typeof e?.status === "number" ? e.status : 0;
  // the error's type as the format names it: OpenAI's error.type, Anthropic's error.error.type, Gemini's status
  const body = e?.error ?? {};
  out.errorType = body?.type === "error" ? body?.error?.type ?? "" : body?.type ?? body?.error?.status ?? "";
  if (!out.errorType && typeof e?.code === "string") out.errorType = e.code; // a Responses stream's error event
  if (!out.errorType) {
    const m = /"(?:type|status)"\s*:\s*"([A-Za-z_]+)"/.exec(String(e?.message ?? ""));
    if (m && m[1] !== "error") out.errorType = m[1];
  }
}
process.stdout.write(JSON.stringify(out) + "\n");
