import { Controller, Get, Headers, Inject, NotFoundException, Res } from '@nestjs/common';
import { TRACING_METRICS } from '../tracing.constants';
import { prefersOpenMetrics } from './metrics-format.negotiation';
import type { RedisCommandMetrics } from './redis-command.metrics';

/** The response methods of Express and Fastify that serving text needs. */
interface TextResponse {
  setHeader?(name: string, value: string): unknown;
  header?(name: string, value: string): unknown;
}

/**
 * Serves the Redis command metrics at `GET /metrics`: in the OpenMetrics text format (with the
 * exemplars) to a scraper whose `Accept` asks for it, in Prometheus text format otherwise. Add it
 * to the `controllers` of a module that can inject `TRACING_METRICS` (one importing
 * `TracingModule`, or any module when it is global).
 */
@Controller()
export class TracingMetricsController {
  constructor(@Inject(TRACING_METRICS) private readonly metrics: RedisCommandMetrics | null) {}

  @Get('metrics')
  async scrape(
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) response: TextResponse,
  ): Promise<string> {
    if (!this.metrics) throw new NotFoundException('Redis metrics are not enabled');
    const openMetrics = prefersOpenMetrics(accept);
    const type = openMetrics ? this.metrics.openMetricsContentType : this.metrics.contentType;
    setHeader(response, 'Content-Type', type);
    setHeader(response, 'Vary', 'Accept');
    return openMetrics ? this.metrics.openMetricsText() : this.metrics.text();
  }
}

function setHeader(response: TextResponse, name: string, value: string): void {
  if (response.setHeader) response.setHeader(name, value);
  else response.header?.(name, value);
}
