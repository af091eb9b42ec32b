import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { queryParams, sendJson, sendJsonString } from './http-io';
import { methodNotAllowed } from './method-not-allowed';
import { StatusApi } from './status-api';

/** `/api/v2/status` and `/api/v2/receivers`. */
@Controller('api/v2')
export class StatusV2Controller {
  constructor(@Inject(StatusApi) private readonly api: StatusApi) {}

  @Get('status')
  status(@Res() res: Response): void {
    sendJson(res, this.api.status());
  }

  @All('status')
  statusMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET']);
  }

  @Get('receivers')
  receivers(@Req() req: Request, @Res() res: Response): void {
    let receivers: ReturnType<StatusApi['receivers']>;
    try {
      receivers = this.api.receivers(queryParams(req));
    } catch (error) {
      sendJsonString(res, 400, (error as Error).message);
      return;
    }
    sendJson(res, receivers);
  }

  @All('receivers')
  receiversMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET']);
  }
}
