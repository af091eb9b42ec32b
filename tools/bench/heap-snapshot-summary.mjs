// Sums a V8 heap snapshot (`--heapsnapshot-signal=SIGUSR2`, `v8.writeHeapSnapshot`): self size by
// kind of object (a class's instances by its name, strings by their representation, arrays, boxed
// numbers, array buffers' data), the largest first; then what the strings are (label keys, series
// texts, short and long values), how much of them repeats text another string already holds, and
// how much whole bodies kept alive by slices of them hold.
// Usage: node tools/bench/heap-snapshot-summary.mjs <file.heapsnapshot> [rows]
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: heap-snapshot-summary.mjs <file.heapsnapshot> [rows]');
  process.exit(2);
}
const ROWS = Number(rowsArg ?? 30);
const snapshot = JSON.parse(readFileSync(file, 'utf8'));
const {
  node_fields: fields,
  node_types: [types],
  edge_fields: edgeFields,
} = snapshot.snapshot.meta;
const { nodes, edges, strings } = snapshot;
const N = fields.length;
const E = edgeFields.length;
const TYPE = fields.indexOf('type');
const NAME = fields.indexOf('name');
const SIZE = fields.indexOf('self_size');
const EDGES = fields.indexOf('edge_count');
const EDGE_NAME = edgeFields.indexOf('name_or_index');
const EDGE_TO = edgeFields.indexOf('to_node');
const STRING_KINDS = new Set(['string', 'concatenated string', 'sliced string']);
const MiB = (bytes) => (bytes / 2 ** 20).toFixed(1).padStart(8);

/** The row an object is summed under. */
function kindOf(type, name) {
  if (STRING_KINDS.has(type)) return `(${type})`;
  if (type === 'number') return '(boxed number)';
  if (type === 'code') return '(code)';
  if (type === 'object' || type === 'closure') return `${type} ${name.slice(0, 50)}`;
  return `(${type}) ${name.slice(0, 40)}`;
}

/** What a string holds, by its text. */
function stringKind(text) {
  if (text.includes('\xff')) return 'label keys (name\\xffvalue\\xff...)';
  if (/[{"]/.test(text)) return 'series texts and other text with braces or quotes';
  return text.length < 13 ? 'short strings (under 13)' : 'long strings';
}

const byKind = new Map();
const byStringKind = new Map();
const byText = new Map();
const slicedParents = new Map();
let total = 0;
for (let i = 0, edge = 0; i < nodes.length; i += N) {
  const type = types[nodes[i + TYPE]];
  const name = strings[nodes[i + NAME]];
  const size = nodes[i + SIZE];
  total += size;
  const kind = kindOf(type, name);
  const row = byKind.get(kind) ?? { count: 0, bytes: 0 };
  row.count++;
  row.bytes += size;
  byKind.set(kind, row);
  if (type === 'string') {
    const sk = byStringKind.get(stringKind(name)) ?? { count: 0, bytes: 0 };
    sk.count++;
    sk.bytes += size;
    byStringKind.set(stringKind(name), sk);
    const same = byText.get(name) ?? { count: 0, bytes: 0 };
    same.count++;
    same.bytes += size;
    byText.set(name, same);
  }
  const edgeCount = nodes[i + EDGES];
  if (type === 'sliced string') {
    for (let k = 0; k < edgeCount; k++) {
      const at = edge + k * E;
      if (strings[edges[at + EDGE_NAME]] === 'parent') {
        const parent = edges[at + EDGE_TO];
        slicedParents.set(parent, (slicedParents.get(parent) ?? 0) + 1);
      }
    }
  }
  edge += edgeCount * E;
}

console.log(`${file}: ${MiB(total).trim()} MiB in all`);
console.log('\n     MiB     count  kind');
for (const [kind, { count, bytes }] of [...byKind]
  .sort((a, b) => b[1].bytes - a[1].bytes)
  .slice(0, ROWS)) {
  console.log(`${MiB(bytes)} ${String(count).padStart(9)}  ${kind}`);
}
console.log('\n     MiB     count  strings (flat ones)');
for (const [kind, { count, bytes }] of byStringKind) {
  console.log(`${MiB(bytes)} ${String(count).padStart(9)}  ${kind}`);
}
let repeated = 0;
for (const { count, bytes } of byText.values()) if (count > 1) repeated += bytes - bytes / count;
console.log(
  `${MiB(repeated)}            repeats of text another string holds (${byText.size} distinct)`,
);
let held = 0;
for (const parent of slicedParents.keys()) held += nodes[parent + SIZE];
console.log(
  `${MiB(held)} ${String(slicedParents.size).padStart(9)}  strings kept alive by slices of them`,
);
