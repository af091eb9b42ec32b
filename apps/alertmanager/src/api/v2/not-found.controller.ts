import { All, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { sendApiError } from './http-io';

/**
 * go-swagger's 404 for any other path under `/api/v2`. Register it after every other API v2
 * controller (silences included): Express tries routes in registration order.
 */
@Controller('api/v2')
export class ApiV2NotFoundController {
  @All('*path')
  notFound(@Req() req: Request, @Res() res: Response): void {
    const path = req.originalUrl.split('?')[0];
    sendApiError(res, 404, 404, `path ${path} was not found`);
  }
}
