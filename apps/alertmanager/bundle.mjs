// Bundles the compiled server, amtool and the query thread into dist/bundle, one file each, with
// V8's code cache beside each: the server starts without resolving and compiling ~1,500 module
// files (BENCHMARKS.md, "Start-up from one bundle"). Run by the package's build after tsc; the
// bins load these files through dist/build/load-bundle.js.
//
// The bundles sit one folder below dist, as every compiled module does, so the paths that modules
// build from their own folder (the web UI's files, package.json, the query thread's entry) hold.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const out = join(dist, 'bundle');

await build({
  entryPoints: {
    'alertmanager-main': join(dist, 'cli', 'alertmanager-main.js'),
    'amtool-main': join(dist, 'cli', 'amtool-main.js'),
    'query-worker.bundle': join(dist, 'api', 'prometheus', 'workers', 'query-worker.entry.js'),
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Nest names its classes' tokens and our errors print their class: names stay.
  keepNames: true,
  logLevel: 'warning',
  external: [
    // A native addon, loaded from its package.
    'lmdb',
    // Packages Nest loads only when an application uses them, which the server does not.
    '@nestjs/microservices',
    '@nestjs/microservices/*',
    '@nestjs/websockets/*',
    'class-transformer',
  ],
});

// The query pool starts `query-worker.entry.js` from its own folder.
writeFileSync(
  join(out, 'query-worker.entry.js'),
  "'use strict';\n" +
    "require('../build/load-bundle.js').loadBundle(require('node:path').join(__dirname, 'query-worker.bundle.js'));\n",
);

const { writeCodeCache } = createRequire(import.meta.url)('./dist/build/load-bundle.js');
writeCodeCache(join(out, 'alertmanager-main.js'), true);
writeCodeCache(join(out, 'amtool-main.js'), true);
writeCodeCache(join(out, 'query-worker.bundle.js'), false);
