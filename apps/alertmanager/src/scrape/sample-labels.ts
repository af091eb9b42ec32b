import { Labels } from '../tsdb/labels';

/**
 * A scraped sample's labels with its target's, as upstream's `mutateSampleLabels`: with
 * `honor_labels` the sample's own win; otherwise the target's win and a clashing label of the
 * sample is kept as `exported_<name>` (`exported_exported_<name>` if that is taken too). Empty
 * values are dropped.
 */
export function withTargetLabels(sample: Labels, target: Labels, honorLabels: boolean): Labels {
  if (target.size === 0) return sample;
  const out = sample.toMap();
  const clashes: [string, string][] = [];
  for (let i = 0; i < target.size; i++) {
    const name = target.names[i];
    const own = out.get(name) ?? '';
    if (honorLabels) {
      if (own === '') out.set(name, target.values[i]);
      continue;
    }
    if (own !== '') clashes.push([name, own]);
    out.set(name, target.values[i]);
  }
  // Renamed once every target label is in place, so a rename never takes a target label's name.
  for (const [name, value] of clashes) {
    let exported = `exported_${name}`;
    while ((out.get(exported) ?? '') !== '') exported = `exported_${exported}`;
    out.set(exported, value);
  }
  return Labels.from(out);
}
