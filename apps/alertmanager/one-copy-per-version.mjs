// An esbuild plugin for bundle.mjs: a package that npm installed in several folders at the same
// version (express, accepts, send and type-is each have their own mime-types 3.0.2 and mime-db
// 1.54.0; Nest's packages six tslib) is bundled once, from the first of its folders in the
// lockfile's order, not once per folder. Every copy would otherwise load and stay in memory at
// start (mime-db's table is parsed four times). Copies of one version are the same files, so the
// server behaves as with its own copies.
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

const NODE_MODULES = `node_modules${sep}`;

/** The folder of the installed package that `file` belongs to, or undefined outside node_modules. */
function packageFolder(file) {
  const at = file.lastIndexOf(NODE_MODULES);
  if (at < 0) return undefined;
  const rest = file.slice(at + NODE_MODULES.length).split(sep);
  const name = rest[0].startsWith('@') ? rest.slice(0, 2).join(sep) : rest[0];
  return file.slice(0, at + NODE_MODULES.length) + name;
}

/** Each installed folder (absolute) mapped to the first folder holding the same name and version. */
function firstCopies(root) {
  const packages = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;
  const first = new Map();
  const folders = new Map();
  for (const [path, entry] of Object.entries(packages)) {
    if (!path.includes('node_modules/') || entry.link || entry.version === undefined) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const key = `${name}@${entry.version}`;
    const folder = join(root, path);
    if (!first.has(key)) first.set(key, folder);
    folders.set(folder, first.get(key));
  }
  return folders;
}

/** The plugin; `root` is the folder of the lockfile and of node_modules. */
export function oneCopyPerVersion(root) {
  const folders = firstCopies(root);
  return {
    name: 'one-copy-per-version',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'one-copy-per-version') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'one-copy-per-version',
        });
        // What does not resolve is left to esbuild (an optional `require.resolve` in a try).
        if (resolved.errors.length > 0) return undefined;
        if (resolved.external) return resolved;
        const folder = packageFolder(resolved.path);
        const first = folder === undefined ? undefined : folders.get(folder);
        if (first === undefined || first === folder) return resolved;
        return { ...resolved, path: first + resolved.path.slice(folder.length) };
      });
    },
  };
}
