import { Controller, Get, Inject, NotFoundException, Res } from '@nestjs/common';
import { TRACING_METRICS } from '../tracing.constants';
import type { RedisCommandMetrics } from './redis-command.metrics';

/** The response methods of Express and Fastify that serving text needs. */
interface TextResponse {
  setHeader?(name: string, value: string): unknown;
  header?(name: string, value: string): unknown;
}

/**
 * Serves the Redis command metrics at `GET /metrics` in Prometheus text format. Add it to the
 * `controllers` of a module that can inject `TRACING_METRICS` (one importing `TracingModule`, or
 * any module when it is global).
 */
@Controller()
export class TracingMetricsController {
  constructor(@Inject(TRACING_METRICS) private readonly metrics: RedisCommandMetrics | null) {}

  @Get('metrics')
  async scrape(@Res({ passthrough: true }) response: TextResponse): Promise<string> {
    if (!this.metrics) throw new NotFoundException('Redis metrics are not enabled');
    const type = this.metrics.contentType;
    if (response.setHeader) response.setHeader('Content-Type', type);
    else response.header?.('Content-Type', type);
    return this.metrics.text();
  }
}
