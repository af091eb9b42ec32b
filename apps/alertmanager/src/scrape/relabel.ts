import { createHash } from 'node:crypto';
import { Labels } from '../tsdb/labels';
import type { RelabelConfig } from './relabel-config';

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * Applies relabeling rules in order as upstream's `relabel.Process`: the new labels, or undefined
 * when a rule drops them. Labels set to an empty value are removed.
 */
export function relabel(labels: Labels, configs: readonly RelabelConfig[]): Labels | undefined {
  let current = labels;
  for (const config of configs) {
    const next = relabelOnce(current, config);
    if (next === undefined) return undefined;
    current = next;
  }
  return current;
}

function relabelOnce(labels: Labels, c: RelabelConfig): Labels | undefined {
  const value = c.sourceLabels.map((name) => labels.get(name)).join(c.separator);
  switch (c.action) {
    case 'drop':
      return c.regex.matches(value) ? undefined : labels;
    case 'keep':
      return c.regex.matches(value) ? labels : undefined;
    case 'dropequal':
      return labels.get(c.targetLabel) === value ? undefined : labels;
    case 'keepequal':
      return labels.get(c.targetLabel) === value ? labels : undefined;
    case 'replace': {
      if (!c.regex.matches(value)) return labels;
      // The regex is anchored: replacing its one match expands the template against it.
      const target = c.regex.replaceAll(value, c.targetLabel);
      if (!LABEL_NAME.test(target)) return labels.with(c.targetLabel, '');
      const result = c.regex.replaceAll(value, c.replacement);
      // As upstream, an empty result deletes the label as written (not as expanded).
      return labels.with(result === '' ? c.targetLabel : target, result);
    }
    case 'lowercase':
      return labels.with(c.targetLabel, value.toLowerCase());
    case 'uppercase':
      return labels.with(c.targetLabel, value.toUpperCase());
    case 'hashmod': {
      // Upstream's sum64 of the MD5: the low eight bytes, big-endian (the high ones shift out).
      const digest = createHash('md5').update(value).digest();
      const mod = digest.readBigUInt64BE(8) % BigInt(c.modulus);
      return labels.with(c.targetLabel, mod.toString());
    }
    case 'labelmap': {
      let out = labels;
      for (let i = 0; i < labels.size; i++) {
        const name = labels.names[i];
        if (c.regex.matches(name))
          out = out.with(c.regex.replaceAll(name, c.replacement), labels.values[i]);
      }
      return out;
    }
    case 'labeldrop':
      return labels.without(labels.names.filter((name) => c.regex.matches(name)));
    case 'labelkeep':
      return labels.without(labels.names.filter((name) => !c.regex.matches(name)));
  }
}
