import type { Request, Response } from 'express';
import { sendApiError } from './http-io';

/**
 * go-swagger's 405: the methods the path has, in alphabetical order (as Alertmanager 0.25 lists
 * them), in `Allow` and in the message.
 */
export function methodNotAllowed(req: Request, res: Response, methods: readonly string[]): void {
  const allowed = [...methods].sort().join(',');
  res.set('Allow', allowed);
  const message = `method ${req.method} is not allowed, but [${allowed}] are`;
  sendApiError(res, 405, 405, message);
}
