import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestBodyReader } from '../request-body';
import { formatQuery } from './format-query';
import { sendSuccess } from './prometheus-reply';
import { answerWithParams } from './request-params';

/**
 * `/api/v1/format_query` by GET or by a POSTed form: the query pretty-printed. It reads no
 * metrics, so it answers on the main thread; the query is bounded as any request's parameters
 * are (the request line by Go's header limit, a form by `--web.max-request-bytes`).
 */
@Controller('api/v1')
export class FormatQueryController {
  constructor(@Inject(RequestBodyReader) private readonly bodies: RequestBodyReader) {}

  @All('format_query')
  formatQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return answerWithParams(req, res, this.bodies, (params) =>
      sendSuccess(res, formatQuery(params)),
    );
  }
}
