import type { Request, Response } from 'express';
import { sendApiError } from './http-io';

/** go-swagger's 405: the methods the path has, in its order, in `Allow` and in the message. */
export function methodNotAllowed(req: Request, res: Response, allowed: readonly string[]): void {
  res.set('Allow', allowed.join(','));
  const message = `method ${req.method} is not allowed, but [${allowed.join(',')}] are`;
  sendApiError(res, 405, 405, message);
}
