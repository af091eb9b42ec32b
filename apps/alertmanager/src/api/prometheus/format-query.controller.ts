import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestBodyReader, RequestTooLargeError } from '../request-body';
import { formatQuery } from './format-query';
import { sendFailure, sendReply, sendSuccess } from './prometheus-reply';
import { requestParams } from './request-params';

/**
 * `/api/v1/format_query` by GET or by a POSTed form: the query pretty-printed. It reads no
 * metrics, so it answers on the main thread; the query is bounded as any request's parameters
 * are (the request line by Go's header limit, a form by `--web.max-request-bytes`).
 */
@Controller('api/v1')
export class FormatQueryController {
  constructor(@Inject(RequestBodyReader) private readonly bodies: RequestBodyReader) {}

  @All('format_query')
  async formatQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.status(405).set('Allow', 'GET, POST').end();
      return;
    }
    try {
      sendSuccess(res, formatQuery(await requestParams(req, this.bodies)));
    } catch (error) {
      if (error instanceof RequestTooLargeError) {
        // As `POST /api/v1/alerts`: refused in the API's envelope, the rest of the body unread.
        res.set('Connection', 'close');
        const body = { status: 'error', errorType: 'bad_data', error: error.message };
        sendReply(res, { status: 413, body: JSON.stringify(body) });
        return;
      }
      sendFailure(res, error);
    }
  }
}
