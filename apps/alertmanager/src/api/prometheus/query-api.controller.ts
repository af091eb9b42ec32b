import { All, Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestBodyReader } from '../request-body';
import { buildInfo } from '../../build/build-info';
import { sendFailure, sendReply, sendSuccess } from './prometheus-reply';
import { QueryRunner, type QueryEndpoint } from './query-request';
import { requestParams } from './request-params';
import { sendGoMethodNotAllowed } from '../go-router-replies';

/**
 * Prometheus's query API, so Grafana and promtool can use the server as a Prometheus data
 * source: `query`, `query_range`, `series`, `labels` and `label/<name>/values` by GET or by a
 * POSTed form, and `status/buildinfo`.
 */
@Controller('api/v1')
export class QueryApiController {
  constructor(
    @Inject(QueryRunner) private readonly queries: QueryRunner,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @All('query')
  query(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, 'query');
  }

  @All('query_range')
  queryRange(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, 'query_range');
  }

  @All('series')
  series(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, 'series');
  }

  @All('labels')
  labels(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, 'labels');
  }

  @Get('label/:name/values')
  labelValues(@Param('name') name: string, @Req() req: Request, @Res() res: Response) {
    return this.answer(req, res, 'label_values', name);
  }

  @Get('status/buildinfo')
  buildInfo(@Res() res: Response): void {
    const info = buildInfo();
    // The fields of Prometheus's answer; a package has no branch, builder or build date to show.
    sendSuccess(res, {
      version: info.version,
      revision: '',
      branch: '',
      buildUser: '',
      buildDate: '',
      goVersion: info.nodeVersion,
    });
  }

  /**
   * Hands the request's parameters (a POSTed form's first, then the query string's) to the query
   * runner and sends its reply; the event loop is free while it is evaluated.
   */
  private async answer(
    req: Request,
    res: Response,
    endpoint: QueryEndpoint,
    labelName?: string,
  ): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendGoMethodNotAllowed(res, ['GET', 'POST']);
      return;
    }
    try {
      const params = await requestParams(req, this.bodies);
      const reply = await this.queries.run({ endpoint, labelName, params: params.toString() });
      sendReply(res, reply);
    } catch (error) {
      sendFailure(res, error);
    }
  }
}
