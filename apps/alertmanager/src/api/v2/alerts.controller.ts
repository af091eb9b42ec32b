import { All, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { parseAlertQuery, type AlertQuery } from './alert-query';
import { AlertsApi } from './alerts-api';
import { methodNotAllowed } from './method-not-allowed';
import { apiHeaders, queryParams, sendJsonString, sendReply, streamBody } from './http-io';
import { postAlertsReply } from './post-replies';
import { RequestBodyReader } from '../request-body';
import { AlertIntake } from '../../alerts/alert-intake';

/** `/api/v2/alerts` and `/api/v2/alerts/groups`, with go-swagger's status codes and bodies. */
@Controller('api/v2')
export class AlertsV2Controller {
  constructor(
    @Inject(AlertsApi) private readonly api: AlertsApi,
    @Inject(AlertIntake) private readonly intake: AlertIntake,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  /** 200 with an empty body; 400 with the joined messages when some alerts were invalid. */
  @Post('alerts')
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    sendReply(res, await postAlertsReply(this.intake, this.bodies, req));
  }

  @Get('alerts')
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const query = this.query(req, res);
    if (query) await this.stream(res, await this.api.alerts(query));
  }

  @All('alerts')
  alertsMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['POST', 'GET']);
  }

  @Get('alerts/groups')
  async groups(@Req() req: Request, @Res() res: Response): Promise<void> {
    const query = this.query(req, res);
    if (query) await this.stream(res, await this.api.groups(query));
  }

  @All('alerts/groups')
  groupsMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET']);
  }

  private query(req: Request, res: Response): AlertQuery | undefined {
    try {
      return parseAlertQuery(queryParams(req));
    } catch (error) {
      sendJsonString(res, 400, (error as Error).message);
      return undefined;
    }
  }

  private async stream(res: Response, pieces: Iterable<string>): Promise<void> {
    apiHeaders(res).status(200).type('application/json');
    await streamBody(res, pieces);
  }
}
