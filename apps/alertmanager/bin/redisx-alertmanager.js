#!/bin/sh
// 2>/dev/null; GLIBC_TUNABLES="glibc.malloc.mmap_threshold=1048576${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}" && export GLIBC_TUNABLES && p=$(($(nproc 2>/dev/null || echo 5) - 1)) && exec node --max-semi-space-size=4 --v8-pool-size=$((p<1?1:p>4?4:p)) "$0" "$@"
'use strict';
// Run as a program (`npx redisx-alertmanager`, or this file's path), the line above is a shell
// command, and a comment to Node. It replaces the shell with Node on this file, with V8's young
// generation kept to 8 MiB a thread, V8's background threads (its compilers' and collectors')
// one fewer than the cores, from 1 to V8's default of 4, and glibc's allocator handing blocks of
// 1 MiB and over back to the system when they are freed; a caller's own GLIBC_TUNABLES come after,
// and win (CONTRIBUTING.md, "The server's memory"). The build writes the server's code caches
// under these flags (`launcherNodeFlags`). `node redisx-alertmanager.js` runs without them.
const { join } = require('node:path');
const args = process.argv.slice(2);
// The metric store's chunk database is checked in a child process while the server's modules
// load (only when `--storage.path` is given here; otherwise the store checks it when it opens).
const at = args.findIndex((a) => a === '--storage.path' || a.startsWith('--storage.path='));
const storagePath = at < 0 ? undefined : args[at].split('=').slice(1).join('=') || args[at + 1];
const serves = !args.includes('--help') && !args.includes('--version');
if (storagePath && serves) {
  require('../dist/tsdb/disk/early-verification.js').verifyChunkDatabaseEarly(storagePath);
}
const bundle = join(__dirname, '..', 'dist', 'bundle');
// The query thread a start keeps warm (and `/-/ready` waits for) boots on another core meanwhile.
if (serves) {
  require('../dist/query-threads/thread-starts.js').startQueryThreadEarly(
    join(bundle, 'query-thread.entry.js'),
  );
}
const { loadBundle } = require('../dist/build/load-bundle.js');
loadBundle(join(bundle, 'alertmanager-main.js')).main(args);
