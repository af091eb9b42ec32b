import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AlertIntake, AlertStorageError } from '../../alerts/alert-intake';
import { decodeV1Alerts } from './decode-v1-alerts';
import { RequestBodyReader, RequestTooLargeError } from '../request-body';

// API v1 answered every request with these headers (CORS for the old UI, no caching).
const V1_HEADERS = {
  'Access-Control-Allow-Headers': 'Accept, Authorization, Content-Type, Origin',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Date',
  'Cache-Control': 'no-cache, no-store, must-revalidate',
};

/**
 * API v1's `POST /api/v1/alerts`, still used by old clients and test scripts: the same ingestion
 * as v2, answered in v1's envelope `{"status":"success"}` or
 * `{"status":"error","errorType":"bad_data","error":"..."}` with 400.
 */
@Controller('api/v1')
export class AlertsV1Controller {
  constructor(
    @Inject(AlertIntake) private readonly intake: AlertIntake,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @Post('alerts')
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(V1_HEADERS).type('application/json');
    let posted: ReturnType<typeof decodeV1Alerts>;
    try {
      posted = decodeV1Alerts(await this.bodies.read(req));
    } catch (error) {
      if (error instanceof RequestTooLargeError) {
        res.set('Connection', 'close');
        return fail(res, 413, 'bad_data', error.message);
      }
      return fail(res, 400, 'bad_data', (error as Error).message);
    }
    let errors: string[];
    try {
      errors = await this.intake.post(posted);
    } catch (error) {
      if (error instanceof AlertStorageError) return fail(res, 500, 'server_error', error.message);
      throw error;
    }
    if (errors.length > 0) return fail(res, 400, 'bad_data', errors.join('; '));
    res.status(200).send('{"status":"success"}');
  }
}

function fail(res: Response, status: number, errorType: string, error: string): void {
  res.status(status).send(JSON.stringify({ status: 'error', errorType, error }));
}
