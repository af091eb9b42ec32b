import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestBodyReader, RequestTooLargeError } from '../request-body';
import { ExemplarQuerier, queryExemplars } from './exemplars-api';
import { sendFailure, sendReply, sendSuccess } from './prometheus-reply';
import { requestParams } from './request-params';

/**
 * `/api/v1/query_exemplars` by GET or by a POSTed form, answered on the main thread from the
 * exemplar store; a query without selectors gets `204 No Content`, as from Prometheus.
 */
@Controller('api/v1')
export class ExemplarsApiController {
  constructor(
    @Inject(ExemplarQuerier) private readonly exemplars: ExemplarQuerier,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @All('query_exemplars')
  async queryExemplars(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.status(405).set('Allow', 'GET, POST').end();
      return;
    }
    try {
      const data = queryExemplars(this.exemplars, await requestParams(req, this.bodies));
      if (data === undefined) res.status(204).end();
      else sendSuccess(res, data);
    } catch (error) {
      if (error instanceof RequestTooLargeError) {
        // As the other form-reading endpoints: refused in the API's envelope, the body unread.
        res.set('Connection', 'close');
        const body = { status: 'error', errorType: 'bad_data', error: error.message };
        sendReply(res, { status: 413, body: JSON.stringify(body) });
        return;
      }
      sendFailure(res, error);
    }
  }
}
