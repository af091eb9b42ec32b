import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { UiAssets, type UiAsset } from './ui-assets';

/**
 * The web UI at the route prefix: the page at `/` (and at `/graph`) and its bundled files under
 * `/public/`. The page addresses everything relative to itself, so it works under any route prefix
 * and behind a proxy serving it at another path; a prefix requested without its trailing slash is
 * redirected to it.
 */
@Controller()
export class UiController {
  constructor(@Inject(UiAssets) private readonly assets: UiAssets) {}

  @Get()
  page(@Req() req: Request, @Res() res: Response): void {
    const path = req.originalUrl.split('?')[0];
    if (!path.endsWith('/')) {
      // Relative, so a proxy serving the prefix elsewhere keeps its own path.
      res.redirect(302, `${path.slice(path.lastIndexOf('/') + 1)}/`);
      return;
    }
    this.sendPage(res);
  }

  /**
   * The graph page, where Prometheus serves it and so where a rule alert's `generatorURL`
   * (`<external URL>/graph?g0.expr=...`) points: the same page, which reads its panels from the
   * query string. Beside the prefix's own page, its relative addresses reach the same files.
   */
  @Get('graph')
  graph(@Req() req: Request, @Res() res: Response): void {
    const [path, query] = req.originalUrl.split(/\?(.*)/s);
    if (path.endsWith('/')) {
      // `graph/` would resolve the page's relative addresses one level too deep.
      res.redirect(302, `../graph${query === undefined ? '' : `?${query}`}`);
      return;
    }
    this.sendPage(res);
  }

  private sendPage(res: Response): void {
    const page = this.assets.get('index.html');
    if (page === undefined || !this.assets.built) {
      res
        .status(404)
        .type('text/plain')
        .send('The web UI was not built: run `npm run build` in the repository.\n');
      return;
    }
    send(res, page);
  }

  @Get('public/:file')
  file(@Param('file') name: string, @Res() res: Response): void {
    const asset = this.assets.get(name);
    if (asset === undefined || name === 'index.html') {
      res.status(404).type('text/plain').send('not found\n');
      return;
    }
    send(res, asset);
  }
}

/**
 * The security headers of the UI's own files. They are defaults: a header the web config's
 * `http_server_config.headers` sets (put on the answer before it reaches the UI) is kept, as the
 * toolkit's configured headers apply to every answer.
 */
export const UI_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
};

/**
 * The file with the UI's security headers where none is set yet; revalidated on every use, and
 * Express answers 304 itself when the browser's copy has the same ETag.
 */
function send(res: Response, asset: UiAsset): void {
  res.set({ 'Cache-Control': 'no-cache', ETag: asset.etag });
  for (const [name, value] of Object.entries(UI_SECURITY_HEADERS)) {
    if (!res.hasHeader(name)) res.setHeader(name, value);
  }
  res.status(200).type(asset.contentType).send(asset.body);
}
