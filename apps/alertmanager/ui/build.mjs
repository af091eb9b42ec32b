// Bundles the web UI into dist/public: the script (Preact and the pages, as an ES module), the
// graph page's code as a chunk loaded when that page opens (the PromQL editor and the chart are
// most of the code), the stylesheet with the chart's, the page and its icon. Run by the package's
// build after tsc; everything the page loads is here.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'public');
mkdirSync(out, { recursive: true });
const common = {
  bundle: true,
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: { app: join(here, 'src', 'main.tsx') },
  outdir: out,
  splitting: true,
  format: 'esm',
  chunkNames: '[name]-[hash]',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
});
await build({ ...common, entryPoints: { app: join(here, 'app.css') }, outdir: out });
for (const file of ['index.html', 'icon.svg']) {
  copyFileSync(join(here, file), join(out, file));
}
