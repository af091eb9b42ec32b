import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestBodyReader } from '../request-body';
import { sendReply } from './prometheus-reply';
import { QueryRunner } from './query-request';
import { answerWithParams } from './request-params';

/**
 * `/api/v1/format_query` by GET or by a POSTed form: the query pretty-printed. It reads no
 * metrics, but its parse and print follow the query's length and depth (a form may be up to
 * `--web.max-request-bytes`), so it runs where queries run, on a query thread.
 */
@Controller('api/v1')
export class FormatQueryController {
  constructor(
    @Inject(QueryRunner) private readonly queries: QueryRunner,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @All('format_query')
  formatQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return answerWithParams(req, res, this.bodies, async (params) => {
      const reply = await this.queries.run({
        endpoint: 'format_query',
        params: params.toString(),
      });
      sendReply(res, reply);
    });
  }
}
