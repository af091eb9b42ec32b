import type { Request, Response } from 'express';
import { RequestTooLargeError, type RequestBodyReader } from '../request-body';
import { queryParams } from '../v2/http-io';
import { sendFailure, sendReply } from './prometheus-reply';
import { sendGoMethodNotAllowed } from '../go-router-replies';

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

/**
 * Serves an endpoint of GET and POSTed-form requests: another method gets `405`; a form longer
 * than the body limit `413` in the API's envelope, the connection closed and the rest of the body
 * unread (as `POST /api/v1/alerts`); `respond` sends the answer to the parameters, and what it
 * throws is answered as Prometheus's error.
 */
export async function answerWithParams(
  req: Request,
  res: Response,
  bodies: RequestBodyReader,
  respond: (params: URLSearchParams) => void | Promise<void>,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'POST') {
    sendGoMethodNotAllowed(res, ['GET', 'POST']);
    return;
  }
  try {
    await respond(await requestParams(req, bodies));
  } catch (error) {
    if (error instanceof RequestTooLargeError) {
      res.set('Connection', 'close');
      const body = { status: 'error', errorType: 'bad_data', error: error.message };
      sendReply(res, { status: 413, body: JSON.stringify(body) });
      return;
    }
    sendFailure(res, error);
  }
}
