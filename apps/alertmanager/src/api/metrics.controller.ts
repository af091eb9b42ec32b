import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Registry } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** `GET /metrics`: the server's own metrics in the Prometheus text format. */
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(MetricsRegistry) private readonly registry: Registry) {}

  @Get()
  async metrics(@Res() res: Response): Promise<void> {
    const body = await this.registry.metrics();
    res.status(200).type(this.registry.contentType).send(body);
  }
}
