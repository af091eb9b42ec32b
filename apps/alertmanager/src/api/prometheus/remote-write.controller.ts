import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RemoteWriteReceiver } from '../../remote-write';
import { RequestBodyReader, RequestTooLargeError } from '../request-body';

/** The receiver behind `POST /api/v1/write`, or none when `--web.enable-remote-write-receiver` is off. */
export interface RemoteWriteEndpoint {
  readonly receiver: RemoteWriteReceiver | undefined;
}

/** Injection token for {@link RemoteWriteEndpoint}. */
export const RemoteWriteEndpoint = Symbol('RemoteWriteEndpoint');

/**
 * Prometheus's `POST /api/v1/write`: samples pushed with the Remote Write protocol, appended to
 * the metric store and answered once they are written to its log. Answers as Go's `http.Error`
 * does (plain text, a line), 404 while the receiver is off.
 */
@Controller('api/v1')
export class RemoteWriteController {
  constructor(
    @Inject(RemoteWriteEndpoint) private readonly endpoint: RemoteWriteEndpoint,
    @Inject(RequestBodyReader) private readonly bodies: RequestBodyReader,
  ) {}

  @Post('write')
  async write(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { receiver } = this.endpoint;
    if (receiver === undefined) {
      return plainError(
        res,
        404,
        'remote write receiver needs to be enabled with --web.enable-remote-write-receiver',
      );
    }
    let body: Buffer;
    try {
      body = await this.bodies.read(req);
    } catch (error) {
      if (error instanceof RequestTooLargeError) {
        res.set('Connection', 'close');
        return plainError(res, 413, error.message);
      }
      throw error;
    }
    const reply = await receiver.write(body);
    if (reply.message === undefined) {
      res.status(reply.status).end();
      return;
    }
    plainError(res, reply.status, reply.message);
  }
}

function plainError(res: Response, status: number, message: string): void {
  res
    .status(status)
    .set({ 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
    .send(`${message}\n`);
}
