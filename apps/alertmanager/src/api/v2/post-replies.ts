import type { IncomingMessage } from 'node:http';
import { SilenceError } from '../../silences';
import type { AlertsApi } from './alerts-api';
import { decodePostableAlerts } from './decode/decode-postable-alerts';
import { decodePostableSilence } from './decode/decode-postable-silence';
import { apiErrorReply, isJsonRequest, jsonReply, jsonStringReply, readBody } from './http-io';
import type { ApiReply } from './http-io';
import type { SilencesApi } from './silences-api';

/** go-swagger's 415 for a body that is not declared as JSON. */
function unsupportedMediaType(req: IncomingMessage): ApiReply {
  const type = JSON.stringify(req.headers['content-type']);
  return apiErrorReply(
    415,
    415,
    `unsupported media type ${type}, only [application/json] are allowed`,
  );
}

/**
 * `POST /api/v2/alerts`: 200 with an empty body once the valid alerts are on disk; 400 with the
 * joined messages when some alerts were invalid; go-swagger's 400, 415 and 422 for a body it
 * refuses; 500 when the alerts could not be made durable (so the sender retries).
 */
export async function postAlertsReply(api: AlertsApi, req: IncomingMessage): Promise<ApiReply> {
  if (!isJsonRequest(req)) return unsupportedMediaType(req);
  const decoded = decodePostableAlerts(await readBody(req));
  if (!Array.isArray(decoded)) return apiErrorReply(decoded.status, decoded.code, decoded.message);
  let errors: string[];
  try {
    errors = await api.post(decoded);
  } catch (error) {
    return jsonStringReply(500, alertStorageFailure(error));
  }
  if (errors.length > 0) return jsonStringReply(400, errors.join('; '));
  return { status: 200 };
}

/** The message of a 500 for alerts that were accepted in memory but could not be written. */
export function alertStorageFailure(error: unknown): string {
  return `failed to store the alerts: ${(error as Error).message}`;
}

/** `POST /api/v2/silences`: 200 `{"silenceID"}` once the change is durable; 400, 404, 415 or 422. */
export async function postSilenceReply(api: SilencesApi, req: IncomingMessage): Promise<ApiReply> {
  if (!isJsonRequest(req)) return unsupportedMediaType(req);
  const posted = decodePostableSilence(await readBody(req));
  if ('status' in posted) return apiErrorReply(posted.status, posted.code, posted.message);
  try {
    return jsonReply({ silenceID: await api.post(posted) });
  } catch (error) {
    return silenceFailureReply(error);
  }
}

/** A refused silence change in upstream's words, or the 500 of a change that is not durable. */
export function silenceFailureReply(error: unknown): ApiReply {
  if (error instanceof SilenceError) return jsonStringReply(error.status, error.message);
  // Storage failed: the change may not be durable, so it is not acknowledged.
  return jsonStringReply(500, `failed to store the silence: ${(error as Error).message}`);
}
