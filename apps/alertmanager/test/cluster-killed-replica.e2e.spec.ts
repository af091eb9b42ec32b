import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPrivateRedis, waitFor, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import {
  postToAll,
  startReplicas,
  webhookConfig,
  type ClusterReplicas,
} from './support/cluster-replicas';
import type { ServerProcess } from './support/server-process';

type Body = {
  status: 'firing' | 'resolved';
  externalURL: string;
  groupLabels: Record<string, string>;
};

/** One request the receiver got: from which replica, for which group, and its status. */
interface Request {
  from: string;
  group: string;
  status: string;
  answered: boolean;
}

const GROUP_WAIT_MS = 1000;
const GROUP_INTERVAL_MS = 1000;

/**
 * Three replicas get group G's alerts (Prometheus posts to every replica); the one that delivers
 * G firing, r1, is killed (`kill -9`) the moment the receiver has answered it, before its record
 * of the delivery can reach Redis (only the attempt it recorded before sending is there), while
 * the receiver holds the first request of another group, H, so a request is in flight. G's
 * resolution, posted to the two survivors only, reaches the
 * receiver once, from a survivor, and G firing is not sent again. Started again on its own
 * storage, which still holds G firing (it never got the resolution), r1 sends neither G firing
 * nor G resolved.
 */
describe('a replica killed right after it delivered', () => {
  let redis: TestRedis;
  let observer: Redis;
  let cluster: ClusterReplicas;
  let receiver: Server;
  let receiverUrl = '';
  let began = Date.now();
  const requests: Request[] = [];
  /** What happened, in order, for failure messages: requests, kills and restarts. */
  const events: string[] = [];
  /** Each replica's name by the port of its external URL: `a`, `b`, `c`; `a'` once started again. */
  const names = new Map<string, string>();
  /** G's first firing notification, once the receiver's answer to it has left. */
  let firingAnswered: Body | undefined;
  /** r1's kill, sent from the receiver's answer to G's first firing notification. */
  let r1Killed: Promise<number | string> | undefined;

  const read = (req: IncomingMessage) =>
    new Promise<Body>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(JSON.parse(text) as Body));
    });
  const portOf = (url: string) => new URL(url).port;
  const nameOf = (replica: ServerProcess) => names.get(String(replica.port)) ?? replica.url;
  const note = (what: string) => events.push(`+${Date.now() - began}ms ${what}`);
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** G's answered notifications, as `<replica>: <status>`. */
  const sentOfG = () =>
    requests.filter((r) => r.group === 'G' && r.answered).map((r) => `${r.from}: ${r.status}`);
  /** Asserts G's notifications; a failure lists everything that happened. */
  const expectSentOfG = (expected: unknown[]) => {
    try {
      expect(sentOfG()).toEqual(expected);
    } catch (error) {
      (error as Error).message += `\n\nIn order:\n${events.join('\n')}`;
      throw error;
    }
  };
  /** Whether a replica has recorded a delivery of G in Redis (the README's `nflog:entry` keys). */
  const recorded = async () => {
    for (const key of await observer.keys('redisx:alertmanager:nflog:entry:*')) {
      const entry = JSON.parse((await observer.hget(key, 'entry')) ?? '{}') as {
        groupKey?: string;
      };
      if (entry.groupKey?.includes('alertname="G"')) return true;
    }
    return false;
  };

  beforeAll(async () => {
    // H's first request is never answered; every other request is answered at once.
    receiver = createServer((req, res) => {
      void read(req).then((body) => {
        const request: Request = {
          from: names.get(portOf(body.externalURL)) ?? body.externalURL,
          group: body.groupLabels['alertname'],
          status: body.status,
          answered: true,
        };
        requests.push(request);
        if (request.group === 'H' && requests.filter((r) => r.group === 'H').length === 1) {
          request.answered = false;
          note(`${request.from} sends H ${request.status}: held`);
          return;
        }
        note(`${request.from} sends ${request.group} ${request.status}: answered`);
        res.writeHead(200).end(() => {
          if (request.group !== 'G' || request.status !== 'firing' || firingAnswered) return;
          firingAnswered = body;
          // Killed the moment the answer has left, as a replica dying with its request in flight:
          // r1 mostly dies before it reads the answer, and its record never reaches Redis (the
          // note of the kill says whether it did).
          const sender = cluster.list.find((r) => portOf(r.url) === portOf(body.externalURL));
          r1Killed = sender?.process.stop('SIGKILL');
        });
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    redis = await startPrivateRedis();
    observer = new Redis(redis.url);
    const config = webhookConfig(`${receiverUrl}/hook`, {
      groupWait: `${GROUP_WAIT_MS}ms`,
      groupInterval: `${GROUP_INTERVAL_MS}ms`,
      // Long enough that nothing repeats, nor expires, while the test runs.
      repeatInterval: '30s',
      sendResolved: true,
    });
    cluster = await startReplicas(config, redis.url, 3);
    cluster.list.forEach((r, i) => names.set(String(r.port), 'abc'[i]));
  }, 30_000);

  afterAll(async () => {
    await cluster?.stop();
    await observer?.quit();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await redis?.stop();
  });

  it('sends G resolved once, from a survivor, and G firing never again', async () => {
    began = Date.now();
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const g = ['1', '2'].map((instance) => ({ labels: { alertname: 'G', instance }, startsAt }));
    await postToAll(cluster.list, [{ labels: { alertname: 'H' }, startsAt }]);
    await waitFor('H to be held at the receiver', () => requests.some((r) => r.group === 'H'));
    await postToAll(cluster.list, g);
    await waitFor('G firing to be answered', () => firingAnswered !== undefined, 15_000);
    const sender = portOf((firingAnswered as Body).externalURL);
    const r1 = cluster.list.find((r) => portOf(r.url) === sender) as ServerProcess;
    expect(await r1Killed).toBe('SIGKILL');
    note(`${nameOf(r1)} killed, ${(await recorded()) ? 'its' : 'no'} record of G in Redis`);
    const survivors = cluster.list.filter((r) => r !== r1);
    const resolvedBySurvivor = expect.stringMatching(
      new RegExp(`^(${survivors.map(nameOf).join('|')}): resolved$`),
    );

    await settle(1000);
    const endsAt = new Date(Date.now() - 500).toISOString();
    await postToAll(
      survivors,
      g.map((alert) => ({ ...alert, endsAt })),
    );
    note('G resolved posted to the survivors');
    await waitFor('G resolved', () => sentOfG().length >= 2, 15_000).catch((error: Error) => {
      throw new Error(`${error.message}\n\nIn order:\n${events.join('\n')}`);
    });
    // Several flushes of each survivor: time enough for a duplicate to show.
    await settle(GROUP_WAIT_MS + 3 * GROUP_INTERVAL_MS);
    expectSentOfG([`${nameOf(r1)}: firing`, resolvedBySurvivor]);

    const again = await cluster.restart(r1);
    names.set(String(again.port), `${nameOf(r1)}'`);
    note(`${nameOf(again)} started`);
    // What makes the restart a trap: its store still holds G firing.
    const held = (await (
      await fetch(`${again.url}/api/v2/alerts?filter=alertname%3D%22G%22`)
    ).json()) as { status: { state: string } }[];
    expect(held.map((alert) => alert.status.state)).toEqual(['active', 'active']);
    // Its group_wait and several group intervals: every flush it would send G from.
    await settle(GROUP_WAIT_MS + 4 * GROUP_INTERVAL_MS);
    expectSentOfG([`${nameOf(r1)}: firing`, resolvedBySurvivor]);
  }, 60_000);
});
