import { Controller, Delete, Get, Post, Res } from '@nestjs/common';
import type { Response } from 'express';

/** Upstream's answer on the v1 routes it removed in 0.27, word for word. */
const REMOVED = JSON.stringify({
  status: 'deprecated',
  error:
    'The Alertmanager v1 API was deprecated in version 0.16.0 and is removed as of version 0.27.0 - please use the equivalent route in the v2 API',
});

/**
 * The read and silence routes of API v1 answer `410 Gone` as current upstream does, so a client
 * still on them learns why instead of seeing a 404. `POST /api/v1/alerts` is still served
 * (`alerts-v1.controller.ts`), and `GET /api/v1/alerts` is Prometheus's rule alerts.
 */
@Controller('api/v1')
export class RemovedV1Controller {
  @Get(['status', 'receivers', 'silences', 'silence/:sid'])
  read(@Res() res: Response): void {
    gone(res);
  }

  @Post('silences')
  post(@Res() res: Response): void {
    gone(res);
  }

  @Delete('silence/:sid')
  remove(@Res() res: Response): void {
    gone(res);
  }
}

function gone(res: Response): void {
  res.status(410).type('application/json').send(`${REMOVED}\n`);
}
