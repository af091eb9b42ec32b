import { createHash, randomBytes } from 'node:crypto';
import * as bcrypt from 'bcryptjs';
import type { Secret } from '../config';
import { bcryptCost } from './bcrypt-hash';
import { CredentialCache } from './credential-cache';

/** A user name and password sent with HTTP basic authentication. */
export interface BasicCredentials {
  user: string;
  password: string;
}

/** Compares a password with a bcrypt hash; a malformed hash is a mismatch. */
export type PasswordCompare = (password: string, hash: string) => Promise<boolean>;

/** Makes a bcrypt hash of a random password at the given cost. */
export type DecoyHasher = (cost: number) => Promise<string>;

const bcryptCompare: PasswordCompare = (password, hash) =>
  bcrypt.compare(password, hash).catch(() => false);

const bcryptDecoy: DecoyHasher = (cost) => bcrypt.hash(randomBytes(18).toString('base64'), cost);

// Base64 as Go's StdEncoding decodes it: padded, nothing else.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The credentials of an `Authorization: Basic ...` header as Go's `Request.BasicAuth` reads
 * them: a case-insensitive scheme, strict padded base64, and the password after the first
 * colon. Undefined when the header is absent or not basic auth.
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || header.length < 6) return undefined;
  if (header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const encoded = header.slice(6);
  if (!BASE64.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Checks basic auth credentials against `basic_auth_users` as the toolkit does: bcrypt runs
 * one at a time (it is the costly part), outcomes are cached by user, stored hash and password
 * (a changed hash misses the cache), and an unknown user is checked against a decoy hash so
 * that it takes as long as a known one and timing does not tell which users exist. Unlike the
 * toolkit, the decoy has the cost of the configured hashes rather than a fixed one, concurrent
 * checks of the same credentials share one bcrypt run, and the cache keys are digests, so
 * passwords are not kept in memory.
 */
export class BasicAuthenticator {
  private readonly pending = new Map<string, Promise<boolean>>();
  private readonly decoys = new Map<number, Promise<string>>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cache = new CredentialCache(),
    private readonly compare: PasswordCompare = bcryptCompare,
    private readonly decoy: DecoyHasher = bcryptDecoy,
  ) {}

  /** Whether the credentials are valid: synchronously when the outcome is cached. */
  check(users: ReadonlyMap<string, Secret>, { user, password }: BasicCredentials) {
    const stored = users.get(user)?.reveal();
    const key = createHash('sha256')
      .update(`${user}\0${stored ?? '\0decoy'}\0${password}`)
      .digest('base64');
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let pending = this.pending.get(key);
    if (!pending) {
      const hash = stored !== undefined ? Promise.resolve(stored) : this.decoyFor(users);
      pending = hash
        .then((h) => this.serially(() => this.compare(password, h)))
        .then((ok) => ok && stored !== undefined)
        .finally(() => this.pending.delete(key));
      pending.then((ok) => this.cache.set(key, ok)).catch(() => undefined);
      this.pending.set(key, pending);
    }
    return pending;
  }

  /** A decoy hash with the highest cost among the configured hashes, made once per cost. */
  private decoyFor(users: ReadonlyMap<string, Secret>): Promise<string> {
    let cost = 0;
    for (const hash of users.values()) {
      try {
        cost = Math.max(cost, bcryptCost(hash.reveal()));
      } catch {
        // A malformed hash never matches; it says nothing about the cost to imitate.
      }
    }
    // With no well-formed hash, the toolkit's own decoy cost.
    if (cost === 0) cost = 10;
    let decoy = this.decoys.get(cost);
    if (!decoy) {
      decoy = this.serially(() => this.decoy(cost));
      this.decoys.set(cost, decoy);
    }
    return decoy;
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
