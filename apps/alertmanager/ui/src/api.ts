// The server's HTTP API as the pages use it. Every address is relative to the page, which the
// server serves at its route prefix, so the UI works under any prefix and behind proxies.
import type { SeriesExemplars } from './exemplar-traces';

export type LabelSet = Record<string, string>;

export interface ApiMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual: boolean;
}

export interface GettableAlert {
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  generatorURL?: string;
  fingerprint: string;
  receivers: { name: string }[];
  status: { state: string; silencedBy: string[]; inhibitedBy: string[]; mutedBy?: string[] };
}

export interface AlertGroup {
  labels: LabelSet;
  receiver: { name: string };
  alerts: GettableAlert[];
}

export interface Silence {
  id: string;
  matchers: ApiMatcher[];
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  createdBy: string;
  comment: string;
  status: { state: 'active' | 'pending' | 'expired' };
}

export interface PostableSilence {
  id?: string;
  matchers: ApiMatcher[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

export interface NotificationRecord {
  id: string;
  at: number;
  startedAt: number;
  receiver: string;
  integration: string;
  index: number;
  groupKey: string;
  groupLabels: LabelSet;
  reason: string;
  alerts: { fingerprint: string; status: string; labels: LabelSet }[];
  attempts: number;
  outcome: 'success' | 'failed';
  error: string;
}

export interface RouteDescription {
  id: string;
  receiver: string;
  matchers: string[];
  continue: boolean;
  groupBy: string[];
  groupWait: string;
  groupInterval: string;
  repeatInterval: string;
  muteTimeIntervals: string[];
  activeTimeIntervals: string[];
  routes: RouteDescription[];
}

export interface RouteMatch {
  labels: LabelSet;
  receivers: string[];
  routes: string[];
}

/** An answer other than 2xx, with the message the server gave. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { Accept: 'application/json', ...(init?.headers ?? {}) },
  });
  const text = await response.text();
  const body: unknown = text === '' ? undefined : safeJson(text);
  if (!response.ok) throw new ApiError(response.status, errorMessage(body, text, response));
  return body as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** API v2 errors are a JSON string or `{code, message}`; Prometheus's are `{error}`. */
function errorMessage(body: unknown, text: string, response: Response): string {
  if (typeof body === 'string' && body.trim() !== '') return body.trim();
  if (body && typeof body === 'object') {
    const fields = body as { message?: unknown; error?: unknown };
    if (typeof fields.message === 'string') return fields.message;
    if (typeof fields.error === 'string') return fields.error;
  }
  return text.trim() || `${response.status} ${response.statusText}`;
}

function query(params: Record<string, string | string[] | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export interface AlertFilter {
  filter: string[];
  active: boolean;
  silenced: boolean;
  inhibited: boolean;
  receiver?: string;
}

export const api = {
  groups: (f: AlertFilter) =>
    request<AlertGroup[]>(
      `api/v2/alerts/groups${query({ filter: f.filter, active: f.active, silenced: f.silenced, inhibited: f.inhibited, receiver: f.receiver })}`,
    ),
  alerts: (filter: string[]) =>
    request<GettableAlert[]>(
      `api/v2/alerts${query({ filter, active: true, silenced: true, inhibited: true })}`,
    ),
  silences: () => request<Silence[]>('api/v2/silences'),
  silence: (id: string) => request<Silence>(`api/v2/silence/${encodeURIComponent(id)}`),
  postSilence: (silence: PostableSilence) =>
    request<{ silenceID: string }>('api/v2/silences', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(silence),
    }),
  expireSilence: (id: string) =>
    request<undefined>(`api/v2/silence/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  notifications: (params: Record<string, string | undefined>) =>
    request<NotificationRecord[]>(`api/v2/notifications${query(params)}`),
  routes: () => request<RouteDescription | null>('api/v2/routes'),
  matchRoutes: (labels: string[]) =>
    request<RouteMatch>(`api/v2/routes/match${query({ label: labels })}`),
  status: () => request<Record<string, unknown>>('api/v2/status'),
  rules: () =>
    request<{ data: { groups: RuleGroup[] } }>('api/v1/rules').then((reply) => reply.data.groups),
  metrics: async () => {
    const response = await fetch('metrics');
    return response.ok ? response.text() : '';
  },
  /** An instant query at `time` (seconds), as the graph page's table asks it. */
  query: (expr: string, time: number, signal?: AbortSignal) =>
    request<QueryAnswer>(`api/v1/query${query({ query: expr, time: String(time) })}`, {
      signal,
      cache: 'no-store',
    }),
  /** A range query, as the graph page's graph asks it. */
  queryRange: (expr: string, start: number, end: number, step: number, signal?: AbortSignal) =>
    request<QueryAnswer>(
      `api/v1/query_range${query({ query: expr, start: String(start), end: String(end), step: String(step) })}`,
      { signal, cache: 'no-store' },
    ),
  /**
   * The exemplars of the series the expression's selectors pick, between `start` and `end`
   * (seconds); none for an expression without selectors, which the server answers with no body.
   */
  queryExemplars: (expr: string, start: number, end: number, signal?: AbortSignal) =>
    request<{ data: SeriesExemplars[] } | undefined>(
      `api/v1/query_exemplars${query({ query: expr, start: String(start), end: String(end) })}`,
      { signal, cache: 'no-store' },
    ).then((reply) => reply?.data ?? []),
  /** Every command-line flag's value by name, as Prometheus's `/api/v1/status/flags` has them. */
  flags: () =>
    request<{ data: Record<string, string> }>('api/v1/status/flags').then((reply) => reply.data),
};

/**
 * `fetch` for the PromQL editor's completion, which builds its own requests to the metadata
 * endpoints (`api/v1/labels`, `api/v1/label/<name>/values`, `api/v1/series`, `api/v1/metadata`);
 * nothing else goes through it.
 */
export function fetchCompletions(input: RequestInfo, init?: RequestInit): Promise<Response> {
  const url = typeof input === 'string' ? input : input.url;
  if (
    !/^\.\/api\/v1\/(labels|label\/[^/]+\/values|series|metadata|status\/flags)(\?|$)/.test(url)
  ) {
    return Promise.reject(new Error(`not a completion endpoint: ${url}`));
  }
  return fetch(input, init);
}

/** A sample as the query API writes it: seconds, and the value as text (`NaN`, `+Inf`). */
export type SamplePair = [number, string];

/** The `data` of a query answer, by result type. */
export type QueryData =
  | { resultType: 'vector'; result: { metric: LabelSet; value: SamplePair }[] }
  | { resultType: 'matrix'; result: { metric: LabelSet; values: SamplePair[] }[] }
  | { resultType: 'scalar'; result: SamplePair }
  | { resultType: 'string'; result: SamplePair };

/** A successful query answer, with what the engine warned about. */
export interface QueryAnswer {
  data: QueryData;
  warnings?: string[];
  infos?: string[];
}

export interface RuleGroup {
  name: string;
  file: string;
  interval: number;
  lastEvaluation: string;
  evaluationTime: number;
  rules: Rule[];
}

export interface Rule {
  name: string;
  query: string;
  type: 'alerting' | 'recording';
  health: string;
  lastError?: string;
  lastEvaluation: string;
  state?: string;
  duration?: number;
  labels?: LabelSet;
  annotations?: LabelSet;
  alerts?: { labels: LabelSet; state: string; activeAt?: string; value: string }[];
}
