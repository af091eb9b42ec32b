import { randomUUID } from 'node:crypto';
import type { LabelSet } from '../labels';
import type { Muter } from '../labels/muter';
import { SilenceIndex } from './silence-index';
import { canUpdateInPlace, expiredAt } from './silence-rules';
import { silenceState, type Silence, type SilenceInput } from './silence';
import { SilenceError, silenceNotFound, validateSilence } from './silence-validation';

/** Where changes go to be kept: `commit` resolves once they are durable. */
export interface SilenceJournal {
  /** Records silences as they now are; resolves when they are on disk. */
  commit(silences: readonly Silence[]): Promise<void>;
  /** Records that silences were garbage-collected (durable with the next commit or sync). */
  forget(ids: readonly string[]): void;
}

/** A journal that keeps nothing, for tests and tools. */
export const NO_JOURNAL: SilenceJournal = { commit: () => Promise.resolve(), forget: () => {} };

/** Limits on what the store accepts; 0 means no limit. */
export interface SilenceLimits {
  /** `--silences.max-silences`: how many silences that are not expired may exist. */
  maxSilences: number;
  /** `--silences.max-silence-size-bytes`: the largest silence, as encoded on disk. */
  maxSilenceSizeBytes: number;
}

/**
 * The silences: creation and update with upstream's rules, expiry, retention, and muting. It is
 * the silence stage's {@link Muter}. Every change is in memory at once and acknowledged (the
 * returned promise resolves) only once the journal has made it durable.
 */
export class SilenceStore implements Muter {
  private readonly silences = new Map<string, Silence>();
  private readonly index = new SilenceIndex();
  private readonly listeners: ((changed: readonly Silence[]) => void)[] = [];

  constructor(
    private readonly journal: SilenceJournal = NO_JOURNAL,
    private readonly limits: SilenceLimits = { maxSilences: 0, maxSilenceSizeBytes: 0 },
    /** The size of a silence as stored, for the size limit. */
    private readonly sizeOf: (silence: Silence) => number = () => 0,
    private readonly newId: () => string = randomUUID,
  ) {}

  /** How many silences are held, expired ones included until they are collected. */
  get size(): number {
    return this.silences.size;
  }

  /**
   * Creates a silence, or updates the one named by `input.id`: in place when upstream allows it
   * (see {@link canUpdateInPlace}), else by expiring it and creating a new one. Resolves with the
   * id once durable; throws {@link SilenceError} for invalid input, limits and unknown ids.
   */
  async set(input: SilenceInput, now: number): Promise<string> {
    const old = input.id === undefined || input.id === '' ? undefined : this.silences.get(input.id);
    if (input.id && !old) throw silenceNotFound();
    validateSilence(input, now);
    const changed: Silence[] = [];
    let silence: Silence;
    if (old && canUpdateInPlace(old, input, now)) {
      const startsAt = silenceState(old, now) === 'active' ? old.startsAt : input.startsAt;
      silence = makeSilence(old.id, input, startsAt, now);
      this.checkSize(silence);
    } else {
      const startsAt = Math.max(input.startsAt, now);
      silence = makeSilence(this.newId(), input, startsAt, now);
      this.checkSize(silence);
      this.checkCount(now, old);
      if (old && silenceState(old, now) !== 'expired') changed.push(expiredAt(old, now));
    }
    changed.push(silence);
    for (const s of changed) this.store(s);
    await this.journal.commit(changed);
    this.announce(changed);
    return silence.id;
  }

  /** Expires a silence (a no-op when it already is); throws the 404 error for an unknown id. */
  async expire(id: string, now: number): Promise<void> {
    const silence = this.silences.get(id);
    if (!silence) throw silenceNotFound();
    const expired = expiredAt(silence, now);
    if (expired === silence) return;
    this.store(expired);
    await this.journal.commit([expired]);
    this.announce([expired]);
  }

  /**
   * Takes a silence as another replica has it, with upstream's merge rule: it replaces the one
   * held when that is older (an earlier `updatedAt`) or missing. Durable in the journal before
   * it resolves; true when it changed anything. Listeners are not told (the change is not ours).
   */
  async merge(silence: Silence): Promise<boolean> {
    const held = this.silences.get(silence.id);
    if (held && held.updatedAt >= silence.updatedAt) return false;
    this.store(silence);
    await this.journal.commit([silence]);
    return true;
  }

  /** Calls `listener` with the silences of every change made here, once it is durable. */
  onChange(listener: (changed: readonly Silence[]) => void): void {
    this.listeners.push(listener);
  }

  private announce(changed: readonly Silence[]): void {
    for (const listener of this.listeners) listener(changed);
  }

  /** One silence by id. */
  get(id: string): Silence | undefined {
    return this.silences.get(id);
  }

  /** Every silence held, in no particular order. */
  list(): Iterable<Silence> {
    return this.silences.values();
  }

  /** The ids of the active silences that mute the labels, sorted. */
  mutedBy(labels: LabelSet, now: number): string[] {
    return this.index.mutedBy(labels, now);
  }

  /** Removes silences that ended `retentionMs` or longer ago; returns how many. */
  gc(now: number, retentionMs: number): number {
    const removed: string[] = [];
    for (const silence of this.silences.values()) {
      if (silence.endsAt + retentionMs <= now) {
        this.silences.delete(silence.id);
        this.index.remove(silence);
        removed.push(silence.id);
      }
    }
    if (removed.length > 0) this.journal.forget(removed);
    return removed.length;
  }

  /** Puts a silence back as it was stored (loading from disk): no rules, no journal. */
  restore(silence: Silence): void {
    this.store(silence);
  }

  /** Drops a silence (replaying a garbage collection). */
  forget(id: string): void {
    const silence = this.silences.get(id);
    if (!silence) return;
    this.silences.delete(id);
    this.index.remove(silence);
  }

  private store(silence: Silence): void {
    const previous = this.silences.get(silence.id);
    if (previous) this.index.remove(previous);
    this.silences.set(silence.id, silence);
    this.index.add(silence);
  }

  private checkSize(silence: Silence): void {
    const max = this.limits.maxSilenceSizeBytes;
    const size = max > 0 ? this.sizeOf(silence) : 0;
    if (size > max) {
      throw new SilenceError(`silence exceeded maximum size: ${size} bytes (limit: ${max} bytes)`);
    }
  }

  /** A new silence needs room among those not expired; the one it replaces makes room. */
  private checkCount(now: number, replaced: Silence | undefined): void {
    const max = this.limits.maxSilences;
    if (max <= 0) return;
    let count = 0;
    for (const s of this.silences.values()) if (silenceState(s, now) !== 'expired') count++;
    if (replaced && silenceState(replaced, now) !== 'expired') count--;
    if (count >= max) {
      throw new SilenceError(`exceeded maximum number of silences: ${count} (limit: ${max})`);
    }
  }
}

function makeSilence(id: string, input: SilenceInput, startsAt: number, now: number): Silence {
  const { matchers, endsAt, createdBy, comment } = input;
  return { id, matchers, startsAt, endsAt, updatedAt: now, createdBy, comment };
}
