import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const PACKAGE = join(__dirname, '..', '..');
const ROOT = join(PACKAGE, '..', '..');

/**
 * The files of `node_modules` that esbuild bundles for an entry requiring `packages`, with or
 * without the plugin (in a child: the plugin and esbuild are ES modules).
 */
function bundledFiles(packages: string[], withPlugin: boolean): string[] {
  const script = `
    import { build } from 'esbuild';
    import { oneCopyPerVersion } from ${JSON.stringify(join(PACKAGE, 'one-copy-per-version.mjs'))};
    const result = await build({
      stdin: { contents: ${JSON.stringify(packages.map((p) => `require('${p}');`).join(''))}, resolveDir: ${JSON.stringify(ROOT)} },
      bundle: true, platform: 'node', write: false, metafile: true, logLevel: 'silent',
      plugins: ${withPlugin} ? [oneCopyPerVersion(${JSON.stringify(ROOT)})] : [],
    });
    console.log(JSON.stringify(Object.keys(result.metafile.inputs)));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

const copiesOf = (files: string[], file: string) => files.filter((f) => f.endsWith(file)).length;

describe('oneCopyPerVersion (bundle.mjs)', () => {
  it('bundles a package installed in several folders at one version once', () => {
    // express, accepts, send and type-is each have mime-types 3.0.2 and mime-db 1.54.0 of their own.
    const packages = ['express', 'accepts', 'send', 'type-is'];
    const without = bundledFiles(packages, false);
    const withPlugin = bundledFiles(packages, true);
    expect(copiesOf(without, 'mime-db/db.json')).toBeGreaterThan(1);
    expect(copiesOf(withPlugin, 'mime-db/db.json')).toBe(1);
    expect(copiesOf(withPlugin, 'mime-types/index.js')).toBe(1);
    // The same files of the same packages, only from fewer folders.
    const inPackage = (files: string[]) =>
      [...new Set(files.map((f) => f.slice(f.lastIndexOf('node_modules/'))))].sort();
    expect(inPackage(withPlugin)).toEqual(inPackage(without));
    expect(withPlugin.length).toBeLessThan(without.length);
  });
});
