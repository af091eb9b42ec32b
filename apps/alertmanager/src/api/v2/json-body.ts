import type { IncomingMessage } from 'node:http';
import { RequestTooLargeError, type RequestBodyReader } from '../request-body';
import { parseMediaType } from './decode/media-type';
import { apiErrorReply, type ApiReply } from './http-io';

/** go-swagger's answer to a `Content-Type` that is not JSON: 400 when unparsable, else 415. */
function contentTypeRefusal(req: IncomingMessage): ApiReply | undefined {
  const header = req.headers['content-type'] ?? '';
  // A body sent without a type is `application/octet-stream` to go-swagger, as to Go's net/http.
  const parsed = parseMediaType(header === '' ? 'application/octet-stream' : header);
  if ('error' in parsed) {
    const message = `parsing Content-Type header from ${JSON.stringify(header)} failed, because ${parsed.error}`;
    return apiErrorReply(400, 400, message);
  }
  if (parsed.mediaType === 'application/json') return undefined;
  const message = `unsupported media type ${JSON.stringify(parsed.mediaType)}, only [application/json] are allowed`;
  return apiErrorReply(415, 415, message);
}

/** 413 for a body over `--web.max-request-bytes`; the connection is closed, not drained. */
export function tooLargeReply(error: RequestTooLargeError): ApiReply {
  return { ...apiErrorReply(413, 413, error.message), headers: { Connection: 'close' } };
}

/**
 * Reads an API v2 request's JSON body in go-swagger's order: the `Content-Type` is checked only
 * when there is a body (a declared length above zero, or bytes actually sent), then the body is
 * read within the size limit. Returns the bytes, or the reply that refuses the request.
 */
export async function readJsonBody(
  req: IncomingMessage,
  bodies: RequestBodyReader,
): Promise<Buffer | ApiReply> {
  const refusal = contentTypeRefusal(req);
  if (refusal && Number(req.headers['content-length'] ?? 0) > 0) return refusal;
  let body: Buffer;
  try {
    body = await bodies.read(req);
  } catch (error) {
    if (error instanceof RequestTooLargeError) return tooLargeReply(error);
    throw error;
  }
  return refusal && body.length > 0 ? refusal : body;
}
