import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { queryParams, sendJson, sendQueryResult } from './http-io';
import { methodNotAllowed } from './method-not-allowed';
import { NotificationsApi } from './notifications-api';
import { RoutesApi } from './routes-api';

/**
 * This server's additions to upstream's API v2, which the web UI reads: the notification history
 * and the routing tree. Bad parameters answer 400 with a JSON string naming them, as the rest of
 * API v2 does.
 */
@Controller('api/v2')
export class ExtensionsV2Controller {
  constructor(
    @Inject(NotificationsApi) private readonly notifications: NotificationsApi,
    @Inject(RoutesApi) private readonly routes: RoutesApi,
  ) {}

  @Get('notifications')
  listNotifications(@Req() req: Request, @Res() res: Response): void {
    sendQueryResult(res, () => this.notifications.list(queryParams(req)));
  }

  @Get('routes')
  tree(@Res() res: Response): void {
    sendJson(res, this.routes.tree() ?? null);
  }

  @Get('routes/match')
  match(@Req() req: Request, @Res() res: Response): void {
    sendQueryResult(res, () => this.routes.match(queryParams(req)));
  }

  @All(['notifications', 'routes', 'routes/match'])
  otherMethods(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET']);
  }
}
