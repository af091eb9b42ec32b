import type { IncomingMessage } from 'node:http';
import { SilenceError } from '../../silences';
import type { RequestBodyReader } from '../request-body';
import { AlertStorageError, type AlertIntake } from '../../alerts/alert-intake';
import { decodePostableAlerts } from './decode/decode-postable-alerts';
import { decodePostableAlertsInSlices } from './decode/decode-postable-alerts-in-slices';
import { decodePostableSilence } from './decode/decode-postable-silence';
import { apiErrorReply, jsonReply, jsonStringReply } from './http-io';
import type { ApiReply } from './http-io';
import { readJsonBody } from './json-body';
import { nextTurn } from '../../time/next-turn';
import type { SilencesApi } from './silences-api';

/** Bodies longer than this are decoded in slices, letting other requests run in between. */
const SLICED_DECODE_BYTES = 1024 * 1024;

/**
 * `POST /api/v2/alerts`: 200 with an empty body once the valid alerts are on disk; 400 with the
 * joined messages when some alerts were invalid; go-swagger's 400, 415 and 422 for a body it
 * refuses; 500 when the alerts could not be made durable (so the sender retries).
 */
export async function postAlertsReply(
  intake: AlertIntake,
  bodies: RequestBodyReader,
  req: IncomingMessage,
): Promise<ApiReply> {
  const body = await readJsonBody(req, bodies);
  if (!Buffer.isBuffer(body)) return body;
  const decoded =
    body.length > SLICED_DECODE_BYTES
      ? await decodePostableAlertsInSlices(body, nextTurn)
      : decodePostableAlerts(body);
  if (!Array.isArray(decoded)) return apiErrorReply(decoded.status, decoded.code, decoded.message);
  let errors: string[];
  try {
    errors = await intake.post(decoded);
  } catch (error) {
    if (error instanceof AlertStorageError) return jsonStringReply(500, error.message);
    throw error;
  }
  if (errors.length > 0) return jsonStringReply(400, errors.join('; '));
  return { status: 200 };
}

/** `POST /api/v2/silences`: 200 `{"silenceID"}` once the change is durable; 400, 404, 415 or 422. */
export async function postSilenceReply(
  api: SilencesApi,
  bodies: RequestBodyReader,
  req: IncomingMessage,
): Promise<ApiReply> {
  const body = await readJsonBody(req, bodies);
  if (!Buffer.isBuffer(body)) return body;
  const posted = decodePostableSilence(body);
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
