import { parseMatcher } from '../../labels';
import {
  buildMatchers,
  checkSilenceTimes,
  silenceNotFound,
  listSilences,
  type SilenceState,
  type SilenceStore,
} from '../../silences';
import type { Clock } from '../../time/clock';
import { queryFlag } from './alert-query';
import type { PostedSilence } from './decode/decode-postable-silence';
import { gettableSilenceJson } from './gettable-silence';

/** What {@link SilencesApi} is built from. */
export interface SilencesApiDeps {
  silences: SilenceStore;
  clock: Clock;
}

const STATES: readonly SilenceState[] = ['active', 'pending', 'expired'];

/** The logic behind the silence endpoints of API v2, free of HTTP. */
export class SilencesApi {
  constructor(private readonly deps: SilencesApiDeps) {}

  /**
   * `GET /api/v2/silences`: the silences whose matchers include every `filter` matcher as written,
   * in upstream's order, as a JSON array. Throws an Error whose message is the 400 body.
   */
  list(params: URLSearchParams): string {
    const matchers = params.getAll('filter').map((f) => parseMatcher(f));
    const states = new Set(STATES.filter((state) => queryFlag(params, state)));
    const now = this.deps.clock.now();
    const listed = listSilences(this.deps.silences.list(), { matchers, states }, now);
    return `[${listed.map((s) => gettableSilenceJson(s, now)).join(',')}]\n`;
  }

  /** `GET /api/v2/silence/{id}`: the silence as JSON, or undefined when unknown. */
  get(id: string): string | undefined {
    const silence = this.deps.silences.get(id);
    return silence && `${gettableSilenceJson(silence, this.deps.clock.now())}\n`;
  }

  /** `POST /api/v2/silences`: creates or updates; resolves with the id once durable. */
  async post(posted: PostedSilence): Promise<string> {
    // Upstream's order: the times, then an unknown id, then the matchers and the rest.
    const now = this.deps.clock.now();
    checkSilenceTimes(posted, now);
    if (posted.id !== undefined && !this.deps.silences.get(posted.id)) throw silenceNotFound();
    const matchers = buildMatchers(posted.matchers);
    return this.deps.silences.set({ ...posted, matchers }, now);
  }

  /** `DELETE /api/v2/silence/{id}`: expires the silence once durable. */
  expire(id: string): Promise<void> {
    return this.deps.silences.expire(id, this.deps.clock.now());
  }
}
