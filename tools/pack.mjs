#!/usr/bin/env node
// Packs the publishable packages into tarballs and prints their paths, one per line.
// Usage: node tools/pack.mjs [--destination DIR] [package...]   (default: <repo>/packed, all)
// Run after a build (`npm run pack` builds first). Before keeping a tarball it checks that every
// file package.json points at (main, types, exports, bin) is inside, so a missing build output
// fails here rather than for the first user who installs the package.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = { '@redisx/alertmanager': 'apps/alertmanager', '@redisx/tracing': 'libs/tracing' };

/** Every path a consumer's require, import or bin resolves through. */
function entryPoints(manifest) {
  const paths = [manifest.main, manifest.types];
  const walk = (value) =>
    typeof value === 'string' ? paths.push(value) : Object.values(value ?? {}).forEach(walk);
  walk(manifest.exports);
  walk(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin);
  return [...new Set(paths.filter(Boolean).map((path) => path.replace(/^\.\//, '')))];
}

/** Workspace packages that are never published, so no published package may depend on them. */
function unpublishedDependencies(manifest) {
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return names.filter((name) => name.startsWith('@redisx/') && !(name in PACKAGES));
}

function pack(name, destination) {
  const manifest = JSON.parse(readFileSync(join(root, PACKAGES[name], 'package.json'), 'utf8'));
  const args = ['pack', '--workspace', name, '--pack-destination', destination, '--json'];
  const output = execFileSync('npm', [...args, '--loglevel=error'], {
    cwd: root,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(output);
  const tarball = join(destination, result.filename);
  const packed = new Set(result.files.map((file) => file.path));
  const missing = entryPoints(manifest).filter((path) => !packed.has(path));
  const unpublished = unpublishedDependencies(manifest);
  if (missing.length > 0 || unpublished.length > 0) {
    rmSync(tarball, { force: true });
    const problems = [
      ...missing.map((path) => `${path} is referenced by package.json but not in the tarball`),
      ...unpublished.map((dep) => `depends on ${dep}, which is not published`),
    ];
    throw new Error(`${name}: ${problems.join('; ')} (did the build run?)`);
  }
  return tarball;
}

function main(argv) {
  let destination = join(root, 'packed');
  const names = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--destination') {
      if (!argv[i + 1]) throw new Error('--destination needs a directory');
      destination = resolve(argv[++i]);
    } else if (argv[i] in PACKAGES) names.push(argv[i]);
    else
      throw new Error(
        `unknown argument "${argv[i]}"; packages: ${Object.keys(PACKAGES).join(', ')}`,
      );
  }
  mkdirSync(destination, { recursive: true });
  for (const name of names.length > 0 ? names : Object.keys(PACKAGES)) {
    console.log(pack(name, destination));
  }
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`pack: ${error.message}`);
  process.exitCode = 1;
}
