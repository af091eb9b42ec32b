/** An alert as a client posts it to `POST /api/v2/alerts`. */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
}

/** Posts alerts to a server's API v2 and fails loudly when it does not answer 200. */
export async function postAlerts(baseUrl: string, alerts: PostableAlert[]): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(alerts),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST /api/v2/alerts: ${response.status} ${text}`);
}

/** An ISO timestamp `offsetMs` from now. */
export const isoIn = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString();
