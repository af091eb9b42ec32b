import { compareGoStrings } from '../../labels';
import { Labels } from '../../tsdb/labels';

/**
 * The label set that relabeling rules change one after the other, as upstream's
 * `labels.Builder`. It stays the input set until a rule really changes something (setting a
 * label to the value it has, or deleting one that is not there, changes nothing); only then does
 * it copy the set into a map, and it builds the sorted set once, after the last rule. Unchanged
 * sets, the common case on the scrape path, come back as the very object given.
 */
export class WorkingLabels {
  private changed: Map<string, string> | undefined;

  constructor(private readonly base: Labels) {}

  /** The value of `name`, or '' when there is no such label. */
  get(name: string): string {
    return this.changed ? (this.changed.get(name) ?? '') : this.base.get(name);
  }

  /** Sets `name` to `value`; an empty value deletes the label, as in upstream's builder. */
  set(name: string, value: string): void {
    if (value === '') {
      this.delete(name);
      return;
    }
    if (this.get(name) === value) return;
    this.edit().set(name, value);
  }

  delete(name: string): void {
    if (this.get(name) === '') return;
    this.edit().delete(name);
  }

  /**
   * The labels as they are now, names in Go's byte order: a snapshot, so a rule that walks them
   * (`labelmap`, `labeldrop`, `labelkeep`) sees the set as it was before it started, and a
   * `labelmap` whose renames collide lets the last name in that order win, as upstream 2.x.
   */
  snapshot(): { readonly names: readonly string[]; readonly values: readonly string[] } {
    if (!this.changed) return this.base;
    const names = [...this.changed.keys()].sort(compareGoStrings);
    return { names, values: names.map((n) => this.changed?.get(n) ?? '') };
  }

  /** The final set: the input itself when no rule changed it. */
  result(): Labels {
    return this.changed ? Labels.from(this.changed) : this.base;
  }

  private edit(): Map<string, string> {
    this.changed ??= this.base.toMap();
    return this.changed;
  }
}
