// Bundles the web UI into dist/public: one script (Preact and the pages), the stylesheet, the
// page and its icon. Run by the package's build after tsc; everything the page loads is here.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'public');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  outfile: join(out, 'app.js'),
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'iife',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'app.css', 'icon.svg']) {
  copyFileSync(join(here, file), join(out, file));
}
