import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const PACKAGE = join(__dirname, '..', '..');
const ROOT = join(PACKAGE, '..', '..');

/**
 * Bundles `entry` (resolved from `dir`) with the plugins of deferred-at-start.mjs into
 * `dir/out.js` and runs it, in children (the plugins and esbuild are ES modules); the run's
 * standard output. `plugins` is the plugins' list, as JavaScript.
 */
function bundleAndRun(dir: string, entry: string, plugins: string, external: string[] = []) {
  const script = `
    import { build } from 'esbuild';
    import { loadedOnFirstUse, nestDateFormatOnFirstUse } from ${JSON.stringify(join(PACKAGE, 'deferred-at-start.mjs'))};
    await build({
      stdin: { contents: ${JSON.stringify(entry)}, resolveDir: ${JSON.stringify(dir)} },
      bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent',
      outfile: ${JSON.stringify(join(dir, 'out.js'))},
      external: ${JSON.stringify(external)},
      plugins: ${plugins},
    });
  `;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return execFileSync(process.execPath, [join(dir, 'out.js')], { cwd: dir, encoding: 'utf8' });
}

/** Writes `files` (path to content) under `dir`. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** A package that counts its loads and answers with `name`. */
const counting = (name: string) =>
  `globalThis.loads = (globalThis.loads ?? 0) + 1;
   exports.name = ${JSON.stringify(name)};
   exports.describe = function () { return 'I am ' + exports.name; };`;

describe('deferred-at-start.mjs (bundle.mjs)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'deferred-at-start-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['bundled', []],
    ['outside the bundle', ['lazy']],
  ])('loads a package %s at the first read of one of its properties', (_, external) => {
    writeTree(dir, { 'node_modules/lazy/index.js': counting('lazy') });
    const out = bundleAndRun(
      dir,
      `const lazy = require('lazy');
       const seen = [globalThis.loads ?? 0];
       seen.push(lazy.describe(), globalThis.loads, 'name' in lazy, Object.keys(lazy).join());
       lazy.name = 'changed';
       seen.push(lazy.describe(), globalThis.loads);
       console.log(JSON.stringify(seen));`,
      `[loadedOnFirstUse(['lazy'])]`,
      external,
    );
    expect(JSON.parse(out)).toEqual([0, 'I am lazy', 1, true, 'name,describe', 'I am changed', 1]);
  });

  it('keeps one stand-in per installed copy, each loading its own', () => {
    writeTree(dir, {
      'node_modules/a/index.js': "module.exports = require('dup');",
      'node_modules/a/node_modules/dup/index.js': counting('dup 1'),
      'node_modules/b/index.js': "module.exports = require('dup');",
      'node_modules/b/node_modules/dup/index.js': counting('dup 2'),
    });
    const out = bundleAndRun(
      dir,
      `const a = require('a'), b = require('b');
       console.log(JSON.stringify([globalThis.loads ?? 0, a.name, b.name, globalThis.loads]));`,
      `[loadedOnFirstUse(['dup'])]`,
    );
    expect(JSON.parse(out)).toEqual([0, 'dup 1', 'dup 2', 2]);
  });

  it("builds Nest's timestamp formats at their first use, the same as before", () => {
    const out = bundleAndRun(
      dir,
      `const Real = Intl.DateTimeFormat;
       let made = 0;
       Intl.DateTimeFormat = function (...options) { made++; return new Real(...options); };
       const { ConsoleLogger, Logger } = require(${JSON.stringify(join(ROOT, 'node_modules', '@nestjs', 'common'))});
       const atLoad = made;
       const shape = (text) => text.replace(/[0-9]/g, '0');
       const ours = new ConsoleLogger().getTimestamp();
       const statics = Logger.getTimestamp();
       const theirs = new Real(undefined, {
         year: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
         day: '2-digit', month: '2-digit',
       }).format(Date.now());
       new ConsoleLogger().getTimestamp();
       Logger.getTimestamp();
       console.log(JSON.stringify([atLoad, made, shape(ours), shape(statics), shape(theirs)]));`,
      `[nestDateFormatOnFirstUse()]`,
      // Loaded by Nest only when an application uses them, as bundle.mjs leaves them out.
      ['class-transformer', 'class-validator'],
    );
    const [atLoad, made, ...shapes] = JSON.parse(out) as [number, number, string, string, string];
    expect([atLoad, made]).toEqual([0, 2]);
    expect(new Set(shapes).size).toBe(1);
  });

  it.each(['console-logger.service.js', 'logger.service.js'])(
    'fails the build when Nest no longer builds the formatter of %s as expected',
    (file) => {
      writeTree(dir, {
        [`node_modules/@nestjs/common/services/${file}`]: 'exports.format = (d) => String(d);',
      });
      expect(() =>
        bundleAndRun(
          dir,
          `require('@nestjs/common/services/${file}');`,
          `[nestDateFormatOnFirstUse()]`,
        ),
      ).toThrow(/its date formatter is no longer built as expected/);
    },
  );
});
