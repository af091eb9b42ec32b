import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** One file of the web UI, read once at start. */
export interface UiAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** Where `npm run build` writes the bundled UI: `dist/public` of the package. */
export const UI_DIRECTORY = join(__dirname, '..', 'public');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The web UI's files, held in memory: the page, its script (with the chunks it loads later, such
 * as the graph page's) and styles, all bundled into the package (the page loads nothing from
 * elsewhere). They are read once at start, the files of the types above and nothing else, so no
 * request reaches the disk. Missing when the package was built without its UI; the server then
 * answers the page with a note saying so.
 */
export class UiAssets {
  private readonly files = new Map<string, UiAsset>();

  constructor(directory: string = UI_DIRECTORY) {
    const entries = existsSync(directory) ? readdirSync(directory, { withFileTypes: true }) : [];
    for (const entry of entries) {
      const type = TYPES[extname(entry.name)];
      if (!entry.isFile() || type === undefined) continue;
      const body = readFileSync(join(directory, entry.name));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      this.files.set(entry.name, { body, contentType: type, etag });
    }
  }

  /** Whether the bundled UI is there. */
  get built(): boolean {
    return this.files.has('index.html') && this.files.has('app.js');
  }

  /** A file by its name under `public/`, or undefined. */
  get(name: string): UiAsset | undefined {
    return this.files.get(name);
  }
}
