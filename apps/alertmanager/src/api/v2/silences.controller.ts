import { All, Controller, Delete, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SilenceError } from '../../silences';
import { apiHeaders, queryParams, sendApiError, sendJsonString, sendReply } from './http-io';
import { methodNotAllowed } from './method-not-allowed';
import { postSilenceReply, silenceFailureReply } from './post-replies';
import { SilencesApi } from './silences-api';
import { RequestBodyReader } from '../request-body';

// go-openapi's `uuid` format: 32 hex digits, optionally grouped 8-4-4-4-12 by dashes.
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** `/api/v2/silences` and `/api/v2/silence/{id}`, with go-swagger's status codes and bodies. */
@Controller('api/v2')
export class SilencesV2Controller {
  constructor(
    @Inject(SilencesApi) private readonly api: SilencesApi,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @Get('silences')
  list(@Req() req: Request, @Res() res: Response): void {
    let body: string;
    try {
      body = this.api.list(queryParams(req));
    } catch (error) {
      return sendJsonString(res, 400, (error as Error).message);
    }
    apiHeaders(res).status(200).type('application/json').send(body);
  }

  /** 200 `{"silenceID"}` once the change is durable; 400, 404 or 422 as upstream. */
  @Post('silences')
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    sendReply(res, await postSilenceReply(this.api, this.bodies, req));
  }

  @All('silences')
  silencesMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['POST', 'GET']);
  }

  @Get('silence/:id')
  get(@Param('id') id: string, @Res() res: Response): void {
    if (!this.validId(id, res)) return;
    const body = this.api.get(id);
    if (body === undefined) return void apiHeaders(res).status(404).end();
    apiHeaders(res).status(200).type('application/json').send(body);
  }

  /** 200 with an empty body once durable (also for an expired silence); 404 for an unknown id. */
  @Delete('silence/:id')
  async expire(@Param('id') id: string, @Res() res: Response): Promise<void> {
    if (!this.validId(id, res)) return;
    try {
      await this.api.expire(id);
      apiHeaders(res).status(200).end();
    } catch (error) {
      if (error instanceof SilenceError && error.status === 404) {
        return void apiHeaders(res).status(404).end();
      }
      sendReply(res, silenceFailureReply(error));
    }
  }

  @All('silence/:id')
  silenceMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET', 'DELETE']);
  }

  private validId(id: string, res: Response): boolean {
    if (UUID.test(id)) return true;
    sendApiError(res, 422, 601, `silenceID in path must be of type uuid: ${JSON.stringify(id)}`);
    return false;
  }
}
