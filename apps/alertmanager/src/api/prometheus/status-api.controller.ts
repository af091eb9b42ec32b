import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { sendFailure, sendSuccess } from './prometheus-reply';
import { PrometheusStatusApi } from './status-api';

/**
 * Prometheus's `/api/v1/status/config`, `/status/flags`, `/status/runtimeinfo` and
 * `/status/tsdb` (`status/buildinfo` is the query API's).
 */
@Controller('api/v1/status')
export class StatusApiController {
  constructor(@Inject(PrometheusStatusApi) private readonly status: PrometheusStatusApi) {}

  @Get('config')
  config(@Res() res: Response): Promise<void> {
    return this.answer(res, () => this.status.config());
  }

  @Get('flags')
  flags(@Res() res: Response): Promise<void> {
    return this.answer(res, () => this.status.flags());
  }

  @Get('runtimeinfo')
  runtimeInfo(@Res() res: Response): Promise<void> {
    return this.answer(res, () => this.status.runtimeInfo());
  }

  @Get('tsdb')
  tsdb(@Res() res: Response): Promise<void> {
    return this.answer(res, () => this.status.tsdb());
  }

  private async answer(res: Response, data: () => unknown): Promise<void> {
    try {
      sendSuccess(res, await data());
    } catch (error) {
      sendFailure(res, error);
    }
  }
}
