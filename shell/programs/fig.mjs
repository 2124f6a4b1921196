// Generates fig.json, the option grammars of some 700 command-line programs, from the Fig autocomplete
// specs (npm @withfig/autocomplete, MIT licensed): for each program and its subcommands, the options that
// take a value, the position of an argument that is a command the program runs, and whether options are
// whole words. Only these facts are kept; no text or code of the specs is copied.
//
// Usage (Node 20; the package is fetched from the npm registry):
//
//	cd "$(mktemp -d)" && npm pack @withfig/autocomplete@2.692.3 && tar xzf withfig-autocomplete-*.tgz
//	node /path/to/shell/programs/fig.mjs "$PWD/package" > /path/to/shell/programs/fig.json
//
// shell/programs/programs.yaml, reviewed by hand, wins over an entry here.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.argv[2];
if (!pkg) {
  console.error("usage: node fig.mjs <path to the extracted @withfig/autocomplete package>");
  process.exit(2);
}
const version = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
const maxDepth = 2; // program, subcommand, sub-subcommand: deeper levels rarely change the grammar

const asArray = (x) => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

// An option takes the next word as its value when it has an argument that is not optional and need not be
// attached with "=".
function valuedNames(options) {
  const out = [];
  for (const o of asArray(options)) {
    const args = asArray(o.args);
    if (args.length === 0 || o.requiresSeparator || args.every((a) => a && a.isOptional)) continue;
    for (const n of asArray(o.name)) if (typeof n === "string" && /^[-+]/.test(n)) out.push(n);
  }
  return out;
}

function entry(spec, inherited, depth) {
  const e = {};
  const persistent = asArray(spec.options).filter((o) => o.isPersistent);
  const valued = [...new Set([...valuedNames(spec.options), ...inherited])].sort();
  if (valued.length) e.valued = valued;
  if (spec.parserDirectives && spec.parserDirectives.flagsArePosixNoncompliant) e.words = true;
  const args = asArray(spec.args);
  const cmd = args.findIndex((a) => a && (a.isCommand || a.loadSpec === true));
  if (cmd >= 0) e.command = cmd;
  if (depth < maxDepth) {
    const inh = [...inherited, ...valuedNames(persistent)];
    const subs = {};
    for (const s of asArray(spec.subcommands)) {
      const sub = entry(s, inh, depth + 1);
      if (Object.keys(sub).length === 0) continue;
      for (const n of asArray(s.name)) if (typeof n === "string" && n && !n.includes(" ")) subs[n] = sub;
    }
    if (Object.keys(subs).length) e.subcommands = subs;
  }
  return e;
}

const programs = {};
const dir = join(pkg, "build");
for (const file of readdirSync(dir).sort()) {
  if (!file.endsWith(".js") || file.startsWith("-") || file === "index.js") continue;
  const name = file.slice(0, -3);
  let spec;
  try {
    spec = (await import(pathToFileURL(join(dir, file)).href)).default;
  } catch {
    continue; // a spec that needs the Fig runtime to load
  }
  if (!spec || typeof spec !== "object" || typeof spec === "function") continue;
  const e = entry(spec, [], 0);
  if (Object.keys(e).length) programs[name] = e;
}

process.stdout.write(
  JSON.stringify({ source: "@withfig/autocomplete", version, license: "MIT", programs }) + "\n",
);
