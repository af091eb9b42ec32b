import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultHttpConfig } from '../config/decoder/http-config.decoder';
import { defaultTlsConfig } from '../config/decoder/tls-config.decoder';
import { Secret } from '../config/model/secret';
import type { OAuth2 } from '../config';
import { HttpClient } from './http-client';
import { OAuth2TokenSource } from './oauth2-token';

interface Seen {
  url: string;
  authorization?: string;
  body: string;
}

/** A loopback server that records requests and answers with `answer`. */
async function server(answer: (seen: Seen) => [number, string]) {
  const seen: Seen[] = [];
  const s: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { url: req.url ?? '', authorization: req.headers.authorization, body };
      seen.push(entry);
      const [status, text] = answer(entry);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => s.close(resolve)),
  };
}

function oauth2(tokenUrl: string): OAuth2 {
  return {
    client_id: 'am client',
    client_secret: new Secret('s3cret'),
    scopes: ['alerts', 'write'],
    token_url: tokenUrl,
    endpoint_params: { audience: 'notify' },
    tls_config: defaultTlsConfig(),
    proxy_from_environment: false,
    proxy_connect_header: {},
  };
}

describe('http_config.oauth2 (client credentials)', () => {
  it('fetches a token once and sends it with every request until it expires', async () => {
    const tokens = await server(() => [
      200,
      '{"access_token":"tok-1","token_type":"bearer","expires_in":3600}',
    ]);
    const target = await server(() => [200, '']);
    const client = new HttpClient({
      ...defaultHttpConfig(),
      oauth2: oauth2(`${tokens.url}/token`),
    });
    try {
      for (let i = 0; i < 2; i++)
        await client.send({ method: 'POST', url: `${target.url}/hook`, body: '{}' });
      expect(tokens.seen).toHaveLength(1);
      expect(tokens.seen[0].authorization).toBe(
        `Basic ${Buffer.from('am%20client:s3cret').toString('base64')}`,
      );
      expect(Object.fromEntries(new URLSearchParams(tokens.seen[0].body))).toEqual({
        grant_type: 'client_credentials',
        scope: 'alerts write',
        audience: 'notify',
      });
      expect(target.seen.map((s) => s.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1']);
    } finally {
      client.close();
      await tokens.close();
      await target.close();
    }
  });

  it('sends the client credentials in the form when the server refuses them in a header', async () => {
    const tokens = await server((seen) =>
      seen.authorization ? [401, '{"error":"invalid_client"}'] : [200, '{"access_token":"tok-2"}'],
    );
    const source = new OAuth2TokenSource(oauth2(`${tokens.url}/token`), (url, headers, body) =>
      fetch(url, { method: 'POST', headers, body }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      })),
    );
    try {
      expect(await source.header()).toBe('Bearer tok-2');
      const form = Object.fromEntries(new URLSearchParams(tokens.seen[1].body));
      expect(form).toMatchObject({ client_id: 'am client', client_secret: 's3cret' });
    } finally {
      await tokens.close();
    }
  });

  it('fetches a new token ten seconds before the old one expires', async () => {
    let now = 0;
    let n = 0;
    const source = new OAuth2TokenSource(
      oauth2('http://token.invalid/token'),
      async () => ({
        status: 200,
        body: JSON.stringify({ access_token: `t${++n}`, expires_in: 60 }),
      }),
      () => now,
    );
    expect(await source.header()).toBe('Bearer t1');
    now = 49_000;
    expect(await source.header()).toBe('Bearer t1');
    now = 50_001;
    expect(await source.header()).toBe('Bearer t2');
  });

  it('names the token endpoint status when no token comes back', async () => {
    const source = new OAuth2TokenSource(oauth2('http://token.invalid/token'), async () => ({
      status: 500,
      body: 'down',
    }));
    await expect(source.header()).rejects.toThrow(
      'oauth2: cannot fetch token: 500\nResponse: down',
    );
  });
});
