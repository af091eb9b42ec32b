/** A silence as a client posts it to `POST /api/v2/silences`. */
export interface PostableSilence {
  id?: string;
  matchers: { name: string; value: string; isRegex: boolean; isEqual?: boolean }[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

/** A silence as `GET /api/v2/silences` returns it. */
export interface GettableSilence extends PostableSilence {
  id: string;
  status: { state: 'active' | 'pending' | 'expired' };
  updatedAt: string;
}

/** A raw answer: status and body text. */
export interface Answer {
  status: number;
  text: string;
}

/** Sends a request to the API v2 and returns status and body, whatever the status. */
export async function apiCall(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}/api/v2${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** A silence over `name="value"` for the next hour. */
export function silenceOf(name: string, value: string, over: Partial<PostableSilence> = {}) {
  return {
    matchers: [{ name, value, isRegex: false }],
    startsAt: new Date().toISOString(),
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    createdBy: 'tests',
    comment: 'e2e',
    ...over,
  };
}

/** Creates a silence and returns its id; fails unless the server answers 200. */
export async function createSilence(baseUrl: string, silence: PostableSilence): Promise<string> {
  const answer = await apiCall(baseUrl, 'POST', '/silences', silence);
  if (answer.status !== 200) throw new Error(`POST /silences: ${answer.status} ${answer.text}`);
  return (JSON.parse(answer.text) as { silenceID: string }).silenceID;
}

/** Every silence the server lists. */
export async function listSilences(baseUrl: string, query = ''): Promise<GettableSilence[]> {
  const answer = await apiCall(baseUrl, 'GET', `/silences${query}`);
  if (answer.status !== 200) throw new Error(`GET /silences: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text) as GettableSilence[];
}
