import { encodeWriteRequest } from '../../src/remote-write/write-request-codec';

/** The headers of a Remote Write 1.0 request. */
const HEADERS = {
  'Content-Encoding': 'snappy',
  'Content-Type': 'application/x-protobuf',
  'X-Prometheus-Remote-Write-Version': '0.1.0',
};

/**
 * Remote-writes one sample of the series `labels` to the server at `baseUrl`; the answer's
 * status (its body read, so the connection is free again).
 */
export async function writeSample(
  baseUrl: string,
  labels: Record<string, string>,
  value: number,
  timestamp: number,
): Promise<number> {
  const body = encodeWriteRequest({
    timeseries: [
      {
        labels: Object.entries(labels).map(([name, v]) => ({ name, value: v })),
        samples: [{ value, timestamp }],
      },
    ],
  });
  const res = await fetch(`${baseUrl}/api/v1/write`, { method: 'POST', headers: HEADERS, body });
  await res.arrayBuffer();
  return res.status;
}
