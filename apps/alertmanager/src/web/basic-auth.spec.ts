import * as bcrypt from 'bcryptjs';
import { Secret } from '../config';
import { BasicAuthenticator, parseBasicAuth, type BasicCredentials } from './basic-auth';
import { CredentialCache } from './credential-cache';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('basic auth header', () => {
  it.each([
    [basic('admin:secret'), { user: 'admin', password: 'secret' }],
    [`bAsIc ${basic('a:b').slice(6)}`, { user: 'a', password: 'b' }],
    [basic('a:b:c'), { user: 'a', password: 'b:c' }],
    [basic(':pw'), { user: '', password: 'pw' }],
    [basic('user:'), { user: 'user', password: '' }],
  ])('reads %s', (header, credentials) => {
    expect(parseBasicAuth(header)).toEqual(credentials);
  });

  it.each([
    ['absent', undefined],
    ['another scheme', 'Bearer abc'],
    ['no colon', basic('admin')],
    ['unpadded base64', 'Basic YTpiYw'],
    ['not base64', 'Basic a:b'],
    ['a space before the credentials', ` ${basic('a:b')}`],
  ])('ignores %s', (_, header) => {
    expect(parseBasicAuth(header)).toBeUndefined();
  });
});

/** A compare that knows which passwords match, counts its runs and its concurrency. */
function fakeCompare(matches: Record<string, string>) {
  const stats = { runs: 0, running: 0, maxRunning: 0 };
  const compare = async (password: string, hash: string) => {
    stats.runs++;
    stats.running++;
    stats.maxRunning = Math.max(stats.maxRunning, stats.running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    stats.running--;
    return matches[hash] === password || hash.startsWith('decoy');
  };
  return { compare, stats };
}

const users = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([u, h]) => [u, new Secret(h)]));

describe('basic auth checks', () => {
  const alice: BasicCredentials = { user: 'alice', password: 'right' };
  const hashOf12 = `$2y$12$${'x'.repeat(53)}`;

  function authenticator(matches: Record<string, string> = { [hashOf12]: 'right' }) {
    const { compare, stats } = fakeCompare(matches);
    const decoyCosts: number[] = [];
    const auth = new BasicAuthenticator(new CredentialCache(), compare, async (cost) => {
      decoyCosts.push(cost);
      return `decoy-${cost}`;
    });
    return { auth, stats, decoyCosts };
  }

  it('runs bcrypt once for repeated credentials, then answers from the cache at once', async () => {
    const { auth, stats } = authenticator();
    const configured = users({ alice: hashOf12 });
    expect(await auth.check(configured, alice)).toBe(true);
    expect(auth.check(configured, alice)).toBe(true);
    expect(auth.check(configured, alice)).toBe(true);
    expect(await auth.check(configured, { user: 'alice', password: 'wrong' })).toBe(false);
    expect(auth.check(configured, { user: 'alice', password: 'wrong' })).toBe(false);
    expect(stats.runs).toBe(2);
  });

  it('shares one bcrypt run among concurrent requests with the same credentials', async () => {
    const { auth, stats } = authenticator();
    const configured = users({ alice: hashOf12 });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => auth.check(configured, alice)),
    );
    expect(outcomes).toEqual(Array(20).fill(true));
    expect(stats.runs).toBe(1);
  });

  it('runs bcrypt one check at a time', async () => {
    const { auth, stats } = authenticator();
    const configured = users({ alice: hashOf12 });
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((password) => auth.check(configured, { user: 'alice', password })),
    );
    expect(stats).toMatchObject({ runs: 4, maxRunning: 1 });
  });

  it('checks unknown users against a decoy with the configured cost and refuses them', async () => {
    const { auth, stats, decoyCosts } = authenticator();
    const configured = users({ alice: hashOf12, bob: 'malformed' });
    // The fake compare accepts anything against a decoy: the user is still unknown.
    expect(await auth.check(configured, { user: 'mallory', password: 'x' })).toBe(false);
    expect(await auth.check(configured, { user: 'eve', password: 'y' })).toBe(false);
    expect(decoyCosts).toEqual([12]);
    expect(stats.runs).toBe(2);
  });

  it("uses the toolkit's decoy cost when no hash is well-formed", async () => {
    const { auth, decoyCosts } = authenticator();
    await auth.check(users({ bob: 'malformed' }), { user: 'x', password: 'y' });
    expect(decoyCosts).toEqual([10]);
  });

  it('misses the cache when the stored hash changed', async () => {
    const newHash = `$2y$12$${'z'.repeat(53)}`;
    const { auth } = authenticator({ [hashOf12]: 'right', [newHash]: 'new' });
    expect(await auth.check(users({ alice: hashOf12 }), alice)).toBe(true);
    expect(await auth.check(users({ alice: newHash }), alice)).toBe(false);
    expect(await auth.check(users({ alice: newHash }), { user: 'alice', password: 'new' })).toBe(
      true,
    );
  });

  it('verifies real bcrypt hashes, in the $2b$ and htpasswd $2y$ spellings', async () => {
    const auth = new BasicAuthenticator();
    const hash = bcrypt.hashSync('s3cret', 4);
    const configured = users({ b: hash, y: hash.replace(/^\$2b\$/, '$2y$'), bad: 'not-a-hash' });
    expect(await auth.check(configured, { user: 'b', password: 's3cret' })).toBe(true);
    expect(await auth.check(configured, { user: 'y', password: 's3cret' })).toBe(true);
    expect(await auth.check(configured, { user: 'b', password: 'S3cret' })).toBe(false);
    expect(await auth.check(configured, { user: 'bad', password: 'not-a-hash' })).toBe(false);
    expect(await auth.check(configured, { user: 'nobody', password: 's3cret' })).toBe(false);
  });
});
