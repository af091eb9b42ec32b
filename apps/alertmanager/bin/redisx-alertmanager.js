#!/usr/bin/env node
'use strict';
const { join } = require('node:path');
const args = process.argv.slice(2);
// The metric store's chunk database is checked in a child process while the server's modules
// load (only when `--storage.path` is given here; otherwise the store checks it when it opens).
const at = args.findIndex((a) => a === '--storage.path' || a.startsWith('--storage.path='));
const storagePath = at < 0 ? undefined : args[at].split('=').slice(1).join('=') || args[at + 1];
if (storagePath && !args.includes('--help') && !args.includes('--version')) {
  require('../dist/tsdb/disk/early-verification.js').verifyChunkDatabaseEarly(storagePath);
}
const { loadBundle } = require('../dist/build/load-bundle.js');
loadBundle(join(__dirname, '..', 'dist', 'bundle', 'alertmanager-main.js')).main(args);
