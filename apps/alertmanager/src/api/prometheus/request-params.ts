import type { Request } from 'express';
import type { RequestBodyReader } from '../request-body';
import { queryParams } from '../v2/http-io';

/**
 * A request's parameters as Go's `Request.FormValue` sees them: a POSTed form's values first,
 * then the query string's. The form is read within `--web.max-request-bytes` (the body reader
 * rejects a longer one); a POST of another content type has only its query string.
 */
export async function requestParams(
  req: Request,
  bodies: RequestBodyReader,
): Promise<URLSearchParams> {
  const params = new URLSearchParams();
  if (
    req.method === 'POST' &&
    /^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')
  ) {
    const body = await bodies.read(req);
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params.append(k, v);
  }
  for (const [k, v] of queryParams(req)) params.append(k, v);
  return params;
}
