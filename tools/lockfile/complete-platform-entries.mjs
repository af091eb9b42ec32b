#!/usr/bin/env node
// Adds lock-file entries for the platform-specific optional packages of native modules (`@swc/core`,
// `unrs-resolver`) that the package registry reachable here does not serve. `npm install` leaves
// them out of package-lock.json, and `npm ci` then refuses the lock as out of sync. The entries
// carry their `os`/`cpu` (read from the package name), so on any machine npm skips all but its own
// platform's package, exactly as with a lock written where every platform package resolves.
// Run after every `npm install` that rewrites the lock: `node tools/lockfile/complete-platform-entries.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const lockPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'wasm32'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  wasi: 'wasm32',
};

/** Derives `{ os, cpu, libc }` from names such as `core-linux-arm-gnueabihf` or `binding-win32-x64-msvc`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return undefined;
  const entry = { os: [os === 'wasm32' ? undefined : os].filter(Boolean), cpu: [cpu] };
  if (os === 'linux') entry.libc = [parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc'];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = path === '' ? 'node_modules' : `${path}/node_modules`;
    const candidates = [`${base}/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = { version, optional: true, ...platform };
    if (platform.os.length === 0) delete packages[`node_modules/${dep}`].os;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries to package-lock.json`);
