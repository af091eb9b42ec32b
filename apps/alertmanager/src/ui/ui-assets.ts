import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The files the page loads; nothing else is served, so no path reaches the disk. */
const FILES = ['index.html', 'app.js', 'app.css', 'icon.svg'];

/**
 * The web UI's files, held in memory: the page, its script and styles, all bundled into the
 * package (the page loads nothing from elsewhere). Missing when the package was built without
 * its UI; the server then answers the page with a note saying so.
 */
export class UiAssets {
  private readonly files = new Map<string, UiAsset>();

  constructor(directory: string = UI_DIRECTORY) {
    for (const name of FILES) {
      const path = join(directory, name);
      if (!existsSync(path)) continue;
      const body = readFileSync(path);
      const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      this.files.set(name, { body, contentType: type, etag });
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
