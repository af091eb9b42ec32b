// Bundles the compiled server, amtool and the query thread into dist/bundle, one file each, with
// V8's code cache beside each: the server starts without resolving and compiling ~1,500 module
// files (BENCHMARKS.md, "Metric store over days"). Run by the package's build after tsc; the
// bins load these files through dist/build/load-bundle.js.
//
// The bundles sit one folder below dist, as every compiled module does, so the paths that modules
// build from their own folder (the web UI's files, package.json, the query thread's entry) hold.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadedOnFirstUse, nestDateFormatOnFirstUse } from './deferred-at-start.mjs';
import { oneCopyPerVersion } from './one-copy-per-version.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const out = join(dist, 'bundle');

await build({
  entryPoints: {
    'alertmanager-main': join(dist, 'cli', 'alertmanager-main.js'),
    'amtool-main': join(dist, 'cli', 'amtool-main.js'),
    'query-thread.bundle': join(dist, 'query-threads', 'query-thread.entry.js'),
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Nest names its classes' tokens and our errors print their class: names stay.
  keepNames: true,
  // Less source for V8 to keep (136 MiB settled against 147 unminified, on a 24 h store); a
  // stack trace maps back to the TypeScript with `node --enable-source-maps`.
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    nestDateFormatOnFirstUse(),
    loadedOnFirstUse(['mime-types', 'iconv-lite']),
    oneCopyPerVersion(join(here, '..', '..')),
  ],
  external: [
    // A native addon, loaded from its package.
    'lmdb',
    // Packages Nest loads only when an application uses them, which the server does not.
    '@nestjs/microservices',
    '@nestjs/microservices/*',
    '@nestjs/websockets/*',
    'class-transformer',
    'class-validator',
    // Loaded at their first use (email, HA on Redis, remote write; iconv-lite's tables for a
    // request body's charset): inside the bundle their code would stay in memory unused.
    'nodemailer',
    'ioredis',
    'protobufjs',
    'snappyjs',
    'iconv-lite',
  ],
});

// V8 keeps a script's source in memory, as Latin-1 when every character fits and as UTF-16
// otherwise: one character beyond Latin-1 (in a comment or a regular expression, which esbuild
// leaves as they are) would double the bundle's memory. None is there today; one that comes is
// escaped, which means the same in both.
for (const name of ['alertmanager-main.js', 'amtool-main.js', 'query-thread.bundle.js']) {
  const file = join(out, name);
  const text = readFileSync(file, 'utf8');
  const escaped = text.replace(/\\?[^\x00-\x7f]/g, (c) => {
    // `\é` in a regular expression means `é`; `\\u00e9` would not: none is expected.
    if (c.length > 1) throw new Error(`${name}: a non-ASCII character after a backslash`);
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  writeFileSync(file, escaped);
}

// The query pool starts `query-thread.entry.js` from its own folder.
writeFileSync(
  join(out, 'query-thread.entry.js'),
  "'use strict';\n" +
    "require('../build/load-bundle.js').loadBundle(require('node:path').join(__dirname, 'query-thread.bundle.js'));\n",
);

// V8 accepts a code cache only under the flags it was made with: the server's bundle and its query
// thread's are written under the Node flags its bin starts Node with, amtool's under none.
const require = createRequire(import.meta.url);
const { writeCodeCache } = require('./dist/build/load-bundle.js');
const { launcherNodeFlags } = require('./dist/build/launcher-node-flags.js');
const flags = launcherNodeFlags(readFileSync(join(here, 'bin', 'redisx-alertmanager.js'), 'utf8'));
const writeUnderFlags = (file, run) =>
  execFileSync(process.execPath, [
    ...flags,
    '-e',
    `require(${JSON.stringify(join(dist, 'build', 'load-bundle.js'))}).writeCodeCache(${JSON.stringify(file)}, ${run})`,
  ]);
writeUnderFlags(join(out, 'alertmanager-main.js'), true);
writeUnderFlags(join(out, 'query-thread.bundle.js'), false);
writeCodeCache(join(out, 'amtool-main.js'), true);
