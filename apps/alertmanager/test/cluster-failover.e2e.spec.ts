import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPrivateRedis, waitFor, type TestRedis } from '@redisx/testing';
import {
  postToAll,
  startReplicas,
  webhookConfig,
  type ClusterReplicas,
} from './support/cluster-replicas';
import type { ServerProcess } from './support/server-process';

type Body = { externalURL: string; groupLabels: Record<string, string> };

/**
 * The replica holding a notification's claim is killed (`kill -9`) while its request hangs at the
 * receiver: the claim lapses at the flush deadline and another replica delivers the
 * notification, once.
 */
describe('a claim whose holder dies mid-send', () => {
  let redis: TestRedis;
  let cluster: ClusterReplicas;
  let receiver: Server;
  let receiverUrl = '';
  const held: Body[] = [];
  const delivered: Body[] = [];

  const read = (req: IncomingMessage) =>
    new Promise<Body>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(JSON.parse(text) as Body));
    });

  beforeAll(async () => {
    // The first request is never answered; the others are, and counted as delivered.
    receiver = createServer((req, res) => {
      void read(req).then((body) => {
        if (held.length === 0) {
          held.push(body);
          return;
        }
        delivered.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    redis = await startPrivateRedis();
    cluster = await startReplicas(webhookConfig(`${receiverUrl}/hook`), redis.url, 2);
  }, 30_000);

  afterAll(async () => {
    await cluster?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await redis?.stop();
  });

  it('is delivered once by another replica after the claim lapses', async () => {
    const replicas = cluster.list;
    await postToAll(replicas, [{ labels: { alertname: 'Failover' } }]);
    await waitFor('the first request to hang at the receiver', async () => held.length === 1);
    const holder = replicas.find((r) => held[0].externalURL.endsWith(`:${new URL(r.url).port}`));
    expect(holder).toBeDefined();
    await holder?.process.stop('SIGKILL');
    await waitFor('another replica to deliver', async () => delivered.length === 1, 30_000);
    const other = replicas.find((r) => r !== holder) as ServerProcess;
    expect(delivered[0].externalURL.endsWith(`:${new URL(other.url).port}`)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(delivered).toHaveLength(1);
  }, 60_000);
});
