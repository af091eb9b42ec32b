import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheFile, compileBundle, loadBundle, writeCodeCache } from './load-bundle';

// A bundle as esbuild writes one: CommonJS, requiring a file beside it and a Node module, reading
// its own folder, and counting how often its top level runs (in a file: it runs in Node's own
// context, not the test's).
const BUNDLE = `
  const { join } = require('node:path');
  require('node:fs').appendFileSync(join(__dirname, 'runs'), 'x');
  exports.beside = require('./beside.js');
  exports.dirname = __dirname;
  exports.filename = __filename;
  exports.own = module.exports === exports;
  exports.resolved = require.resolve('./beside.js');
  exports.twice = (n) => join(String(n * 2));
  exports.imported = () => import('node:os').then((os) => typeof os.tmpdir);
`;

describe('loadBundle', () => {
  let dir: string;
  let bundle: string;
  const runs = () => {
    try {
      return readFileSync(join(dir, 'runs'), 'utf8').length;
    } catch {
      return 0;
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'load-bundle-'));
    bundle = join(dir, 'main.js');
    writeFileSync(bundle, BUNDLE);
    writeFileSync(join(dir, 'beside.js'), 'module.exports = "beside";');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // What the cache file holds: none, V8's own, one for another source, or damaged bytes.
  const caches: Array<[string, () => void]> = [
    ['without a code cache', () => undefined],
    ['with its code cache', () => writeCodeCache(bundle, true)],
    [
      'with a cache of another source',
      () => {
        writeFileSync(bundle, `${BUNDLE}\nexports.other = 1;`);
        writeCodeCache(bundle, false);
        writeFileSync(bundle, BUNDLE);
      },
    ],
    ['with a damaged cache', () => writeFileSync(codeCacheFile(bundle), Buffer.alloc(64, 7))],
  ];

  it.each(caches)('runs the bundle as a CommonJS module of its folder %s', async (_, prepare) => {
    prepare();
    const before = runs();
    const loaded = loadBundle(bundle) as Record<string, unknown>;
    expect(runs()).toBe(before + 1);
    expect(loaded).toMatchObject({
      beside: 'beside',
      dirname: dir,
      filename: bundle,
      own: true,
      resolved: join(dir, 'beside.js'),
    });
    expect((loaded.twice as (n: number) => string)(21)).toBe('42');
    await expect((loaded.imported as () => Promise<string>)()).resolves.toBe('function');
  });

  it('writes a cache that the next load accepts, replacing the file whole', () => {
    const size = writeCodeCache(bundle, true);
    const cache = readFileSync(codeCacheFile(bundle));
    expect(cache.length).toBe(size);
    expect(size).toBeGreaterThan(0);
    expect(() => readFileSync(`${codeCacheFile(bundle)}.tmp`)).toThrow(/ENOENT/);
    expect(compileBundle(bundle, cache).script.cachedDataRejected).toBe(false);
    writeFileSync(bundle, `${BUNDLE}\nexports.other = 1;`);
    expect(compileBundle(bundle, cache).script.cachedDataRejected).toBe(true);
  });

  it('compiles a thread entry without running it when asked', () => {
    const before = runs();
    writeCodeCache(bundle, false);
    expect(runs()).toBe(before);
    writeCodeCache(bundle, true);
    expect(runs()).toBe(before + 1);
  });

  // Node's source maps apply to what its own loader compiles; a child process runs the build's
  // copy of this loader, as the bins do.
  it.each([
    [
      'with --enable-source-maps, through the source map',
      ['--enable-source-maps'],
      /original\.ts:7:/,
    ],
    ['without, at the bundle', [], /main\.js:1:/],
  ])('names where a bundled error was thrown %s', (_, flags, where) => {
    writeFileSync(
      bundle,
      'exports.fail = () => { throw new Error("failed"); };\n//# sourceMappingURL=main.js.map\n',
    );
    // Line 1, column 0 of the bundle is line 7, column 0 of original.ts.
    const map = { version: 3, sources: ['original.ts'], names: [], mappings: 'AAMA' };
    writeFileSync(join(dir, 'main.js.map'), JSON.stringify(map));
    const loader = join(__dirname, '..', '..', 'dist', 'build', 'load-bundle.js');
    const script = `try { require(${JSON.stringify(loader)}).loadBundle(${JSON.stringify(bundle)}).fail(); } catch (e) { console.log(e.stack.split('\\n')[1]); }`;
    const stack = execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    expect(stack).toMatch(where);
  });
});
