import { QueryParamError } from './http-io';

/** One notification as the history keeps it (see the `notify` folder's `NotificationRecord`). */
export type NotificationView = object;

/** What the API reads the history through. */
export interface NotificationHistoryReader {
  list(query: {
    receiver?: string;
    integration?: string;
    outcome?: 'success' | 'failed';
    groupKey?: string;
    fingerprint?: string;
    limit: number;
  }): NotificationView[];
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const PARAMETERS = ['receiver', 'integration', 'outcome', 'groupKey', 'fingerprint', 'limit'];

/**
 * `GET /api/v2/notifications`, an extension of upstream's API: the notifications sent, newest
 * first, with their receiver, integration, group, alerts and outcome after retries. Parameters
 * `receiver`, `integration`, `outcome` (`success` or `failed`), `groupKey` (a substring),
 * `fingerprint` (an alert's) and `limit` (1 to 1000, default 100); anything else is refused.
 */
export class NotificationsApi {
  constructor(private readonly history: NotificationHistoryReader) {}

  list(params: URLSearchParams): NotificationView[] {
    for (const name of params.keys()) {
      if (!PARAMETERS.includes(name)) {
        throw new QueryParamError(
          `unknown parameter "${name}"; known parameters are ${PARAMETERS.join(', ')}`,
        );
      }
    }
    const outcome = params.get('outcome') ?? undefined;
    if (outcome !== undefined && outcome !== 'success' && outcome !== 'failed') {
      throw new QueryParamError(`outcome must be "success" or "failed", got "${outcome}"`);
    }
    const limitText = params.get('limit');
    const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new QueryParamError(
        `limit must be an integer from 1 to ${MAX_LIMIT}, got "${limitText}"`,
      );
    }
    return this.history.list({
      receiver: params.get('receiver') ?? undefined,
      integration: params.get('integration') ?? undefined,
      outcome,
      groupKey: params.get('groupKey') ?? undefined,
      fingerprint: params.get('fingerprint') ?? undefined,
      limit,
    });
  }
}
