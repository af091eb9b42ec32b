import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ScrapeManager } from '../../scrape';
import { queryParams } from '../v2/http-io';
import { metricMetadataView, targetMetadataView } from './metadata-view';
import { sendFailure, sendSuccess } from './prometheus-reply';

/**
 * Prometheus's metric metadata API, which Grafana's metric browser and type hints read:
 * `/api/v1/targets/metadata` (`match_target`, `metric`, `limit`) and `/api/v1/metadata`
 * (`metric`, `limit`), from the `# TYPE`, `# HELP` and `# UNIT` lines of the active targets' last
 * scrapes. Parameters are read as Go's `FormValue` does: the first value of each.
 */
@Controller('api/v1')
export class MetadataApiController {
  constructor(@Inject(ScrapeManager) private readonly scrape: ScrapeManager) {}

  @Get('targets/metadata')
  targetMetadata(@Req() req: Request, @Res() res: Response): void {
    try {
      const params = queryParams(req);
      sendSuccess(
        res,
        targetMetadataView(this.scrape.scrapePools, {
          matchTarget: params.get('match_target'),
          metric: params.get('metric'),
          limit: params.get('limit'),
        }),
      );
    } catch (error) {
      sendFailure(res, error);
    }
  }

  @Get('metadata')
  metadata(@Req() req: Request, @Res() res: Response): void {
    try {
      const params = queryParams(req);
      sendSuccess(
        res,
        metricMetadataView(this.scrape.scrapePools, {
          metric: params.get('metric'),
          limit: params.get('limit'),
        }),
      );
    } catch (error) {
      sendFailure(res, error);
    }
  }
}
