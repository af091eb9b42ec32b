import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultHttpConfig } from '../config/decoder/http-config.decoder';
import { BodyBuffer, BodyBufferPool } from './body-buffer';
import { HttpClient } from './http-client';

const config = defaultHttpConfig();

/** A body of `bytes` bytes whose content says which request it answered. */
const bodyOf = (bytes: number, seed: string) =>
  Buffer.from(seed.repeat(Math.ceil(bytes / seed.length)).slice(0, bytes));

/** The bodies answered in turn: size, whether `Content-Length` is sent, pieces written. */
const table: { bytes: number; declared: boolean; pieces: number }[] = [
  { bytes: 10, declared: true, pieces: 1 },
  { bytes: 300_000, declared: true, pieces: 7 },
  { bytes: 1_200_000, declared: false, pieces: 19 },
  { bytes: 0, declared: false, pieces: 0 },
  { bytes: 70_000, declared: false, pieces: 3 },
  { bytes: 2_000_000, declared: true, pieces: 40 },
  { bytes: 5, declared: true, pieces: 1 },
];

describe('BodyBuffer', () => {
  let server: Server;
  let url = '';
  let served = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      const { bytes, declared, pieces } = table[served];
      const body = bodyOf(bytes, `request ${served++};`);
      res.writeHead(200, declared ? { 'Content-Length': String(bytes) } : {});
      const step = Math.ceil(bytes / Math.max(1, pieces));
      const write = (at: number) => {
        if (at >= bytes) return void res.end();
        res.write(body.subarray(at, at + step), () => setImmediate(() => write(at + step)));
      };
      write(0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads each body of a series of requests whole into the same memory, growing and shrinking it', async () => {
    const client = new HttpClient(config);
    const into = new BodyBuffer();
    try {
      for (const [n, { bytes }] of table.entries()) {
        const res = await client.send({
          method: 'GET',
          url,
          maxBodyBytes: 4 << 20,
          bodyBuffer: into,
        });
        expect({ n, truncated: res.truncated, bytes: res.bytes?.length }).toEqual({
          n,
          truncated: false,
          bytes,
        });
        expect(res.bytes?.equals(bodyOf(bytes, `request ${n};`))).toBe(true);
        expect(res.body).toBe(bodyOf(bytes, `request ${n};`).toString());
      }
    } finally {
      client.close();
    }
  });

  it('keeps no more than the limit of a longer body, and says it was cut', async () => {
    const into = new BodyBuffer();
    into.begin(undefined);
    for (const piece of ['abc', 'defg', 'h']) into.append(Buffer.from(piece));
    expect(into.bytes.toString()).toBe('abcdefgh');
    into.begin(3);
    into.append(Buffer.from('xyz'));
    expect(into.bytes.toString()).toBe('xyz');
    const client = new HttpClient(config);
    served = table.findIndex((b) => b.bytes === 2_000_000);
    try {
      const res = await client.send({ method: 'GET', url, maxBodyBytes: 1000, bodyBuffer: into });
      expect(res.truncated).toBe(true);
      expect(res.bytes?.length).toBe(1000);
      expect(res.body).toBe(bodyOf(1000, `request ${served - 1};`).toString());
    } finally {
      client.close();
    }
  });

  it('lends the free buffer nearest in size, and keeps no more than it is told to', () => {
    const pool = new BodyBufferPool(2);
    const sized = (bytes: number) => {
      const buffer = pool.take(bytes);
      buffer.begin(bytes);
      buffer.append(Buffer.alloc(bytes));
      return buffer;
    };
    const [small, middle, large] = [sized(100), sized(10_000), sized(1_000_000)];
    for (const b of [small, middle, large]) pool.give(b);
    expect(pool.take(900_000)).toBe(large);
    expect(pool.take(50)).toBe(middle);
    expect(pool.take(50)).not.toBe(small);
  });

  it('gives its room back after a run of small bodies, not after one', () => {
    const buffer = new BodyBuffer();
    buffer.begin(1 << 20);
    buffer.append(Buffer.alloc(1 << 20));
    const sizes: number[] = [];
    for (let i = 0; i < 10; i++) {
      buffer.begin(100);
      buffer.append(Buffer.alloc(100));
      sizes.push(buffer.capacity);
    }
    expect(sizes).toEqual([...Array(8).fill(1 << 20), 100, 100]);
  });
});
