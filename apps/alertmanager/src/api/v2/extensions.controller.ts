import { All, Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { queryParams, sendJson, sendJsonString } from './http-io';
import { methodNotAllowed } from './method-not-allowed';
import { NotificationQueryError, NotificationsApi } from './notifications-api';
import { RouteQueryError, RoutesApi } from './routes-api';

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
    try {
      sendJson(res, this.notifications.list(queryParams(req)));
    } catch (error) {
      if (!(error instanceof NotificationQueryError)) throw error;
      sendJsonString(res, 400, error.message);
    }
  }

  @All('notifications')
  notificationsMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET']);
  }

  @Get('routes')
  tree(@Res() res: Response): void {
    sendJson(res, this.routes.tree() ?? null);
  }

  @Get('routes/match')
  match(@Req() req: Request, @Res() res: Response): void {
    try {
      sendJson(res, this.routes.match(queryParams(req)));
    } catch (error) {
      if (!(error instanceof RouteQueryError)) throw error;
      sendJsonString(res, 400, error.message);
    }
  }

  @All(['routes', 'routes/match'])
  routesMethod(@Req() req: Request, @Res() res: Response): void {
    methodNotAllowed(req, res, ['GET']);
  }
}
