import { matchesLabels, type LabelSet } from '../labels';
import { silenceState, type Silence } from './silence';

/**
 * The silences that can mute an alert, found without scanning them all: a silence with an
 * equality matcher on a non-empty value (`alertname="X"`) is filed under that label and value,
 * so an alert is checked only against silences filed under one of its own labels, plus the few
 * without such a matcher (only regexes or negative matchers), which are always checked.
 */
export class SilenceIndex {
  private readonly byLabel = new Map<string, Map<string, Set<Silence>>>();
  private readonly unfiled = new Set<Silence>();

  /** Files a silence; `remove` must be called with the same object before replacing it. */
  add(silence: Silence): void {
    const key = silence.matchers.find((m) => m.type === '=' && m.value !== '');
    if (!key) {
      this.unfiled.add(silence);
      return;
    }
    let values = this.byLabel.get(key.name);
    if (!values) this.byLabel.set(key.name, (values = new Map()));
    let set = values.get(key.value);
    if (!set) values.set(key.value, (set = new Set()));
    set.add(silence);
  }

  /** Takes a silence out of the index. */
  remove(silence: Silence): void {
    if (this.unfiled.delete(silence)) return;
    const key = silence.matchers.find((m) => m.type === '=' && m.value !== '');
    if (!key) return;
    const values = this.byLabel.get(key.name);
    const set = values?.get(key.value);
    if (!values || !set) return;
    set.delete(silence);
    if (set.size === 0) values.delete(key.value);
    if (values.size === 0) this.byLabel.delete(key.name);
  }

  /** The ids of the silences active at `now` whose matchers all accept the labels, sorted. */
  mutedBy(labels: LabelSet, now: number): string[] {
    let ids: string[] | undefined;
    const check = (silence: Silence) => {
      if (silenceState(silence, now) !== 'active' || !matchesLabels(silence.matchers, labels)) {
        return;
      }
      (ids ??= []).push(silence.id);
    };
    for (const silence of this.unfiled) check(silence);
    if (this.byLabel.size > 0) {
      for (const name in labels) {
        const set = this.byLabel.get(name)?.get(labels[name]);
        if (set) for (const silence of set) check(silence);
      }
    }
    return ids === undefined ? NONE : ids.length > 1 ? ids.sort() : ids;
  }
}

// Shared by every unsilenced alert, so a listing allocates nothing for them.
const NONE = Object.freeze([]) as unknown as string[];
