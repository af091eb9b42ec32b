import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UiAssets } from './ui-assets';

/** The bundle's directory as the build writes it, with things that are not the UI's files. */
const FILES: Record<string, string> = {
  'index.html': '<!doctype html>',
  'app.js': 'import("./graph-AB12CD34.js");',
  'graph-AB12CD34.js': 'export const graph = 1;',
  'app.css': 'body {}',
  'icon.svg': '<svg/>',
  'notes.txt': 'not served',
  'app.js.map': '{}',
};

describe('UiAssets', () => {
  let dir: string;
  let assets: UiAssets;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-ui-assets-'));
    for (const [name, body] of Object.entries(FILES)) await writeFile(join(dir, name), body);
    await mkdir(join(dir, 'nested.js'));
    assets = new UiAssets(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
    ['graph-AB12CD34.js', 'text/javascript; charset=utf-8'],
    ['app.css', 'text/css; charset=utf-8'],
    ['icon.svg', 'image/svg+xml'],
  ])('serves %s, a file the page loads, as %s', (name, type) => {
    expect(assets.get(name)?.contentType).toBe(type);
    expect(assets.get(name)?.body.toString()).toBe(FILES[name]);
  });

  it.each(['notes.txt', 'app.js.map', 'nested.js', '../index.html'])(
    'serves nothing for %s',
    (name) => {
      expect(assets.get(name)).toBeUndefined();
    },
  );

  it('is built with the page and its script, and not without', () => {
    expect(assets.built).toBe(true);
    expect(new UiAssets(join(dir, 'missing')).built).toBe(false);
  });
});
