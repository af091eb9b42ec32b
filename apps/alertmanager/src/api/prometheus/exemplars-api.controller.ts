import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestBodyReader } from '../request-body';
import { ExemplarQuerier, queryExemplars } from './exemplars-api';
import { sendSuccess } from './prometheus-reply';
import { answerWithParams } from './request-params';

/**
 * `/api/v1/query_exemplars` by GET or by a POSTed form, answered on the main thread from the
 * exemplar store in slices; a query without selectors gets `204 No Content`, as from Prometheus.
 */
@Controller('api/v1')
export class ExemplarsApiController {
  constructor(
    @Inject(ExemplarQuerier) private readonly exemplars: ExemplarQuerier,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @All('query_exemplars')
  queryExemplars(@Req() req: Request, @Res() res: Response): Promise<void> {
    return answerWithParams(req, res, this.bodies, async (params) => {
      const data = await queryExemplars(this.exemplars, params);
      if (data === undefined) res.status(204).end();
      else sendSuccess(res, data);
    });
  }
}
