import { All, Controller, Get, Head, Inject, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConfigReloader } from '../reload/config-reloader';
import { ServerReadiness } from './server-readiness';

/**
 * Alertmanager's operational endpoints: liveness, readiness and configuration reload. HEAD is
 * declared for liveness and readiness, as upstream declares it (a 405 of theirs names it).
 */
@Controller('-')
export class LifecycleController {
  constructor(
    @Inject(ConfigReloader) private readonly reloader: ConfigReloader,
    @Inject(ServerReadiness) private readonly readiness: ServerReadiness,
  ) {}

  /** `GET /-/healthy`: the process is up. */
  @Get('healthy')
  healthy(@Res() res: Response): void {
    res.status(200).type('text/plain').send('OK');
  }

  @Head('healthy')
  healthyHead(@Res() res: Response): void {
    this.healthy(res);
  }

  /**
   * `GET /-/ready`: configuration loaded, the HTTP server serving and the warm query thread
   * ready; until then 503 as Prometheus answers while it cannot serve queries yet.
   */
  @Get('ready')
  ready(@Res() res: Response): void {
    if (this.readiness.ready()) res.status(200).type('text/plain').send('OK');
    else res.status(503).type('text/plain').send('Service Unavailable');
  }

  @Head('ready')
  readyHead(@Res() res: Response): void {
    this.ready(res);
  }

  /** `POST /-/reload`: 200 with an empty body, or 500 naming why the new config was refused. */
  @Post('reload')
  async reload(@Res() res: Response): Promise<void> {
    try {
      await this.reloader.reload();
      res.status(200).end();
    } catch (error) {
      res
        .status(500)
        .type('text/plain')
        .send(`failed to reload config: ${(error as Error).message}\n`);
    }
  }

  /** Any other method on `/-/reload` is refused, as upstream does with 405. */
  @All('reload')
  reloadWrongMethod(@Res() res: Response): void {
    res.status(405).set('Allow', 'POST').type('text/plain').send('Only POST requests allowed\n');
  }
}
