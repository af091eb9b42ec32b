import { isValidLabelName, type Matcher } from '../labels';
import type { ObjectReader } from './decoder/object-reader';
import type { YamlValue } from './decoder/yaml-value';
import {
  combineMatchers,
  decodeMatchers,
  decodeMatchMap,
  decodeMatchReMap,
} from './matchers.decoder';
import type { Route } from './model/route.model';

/** Where each route field was written, for cross-reference errors after decoding. */
export interface RouteSource {
  readonly reader: ObjectReader;
  readonly route: Route;
  readonly children: RouteSource[];
}

const KEYS = [
  'receiver',
  'group_by',
  'continue',
  'match',
  'match_re',
  'matchers',
  'group_wait',
  'group_interval',
  'repeat_interval',
  'mute_time_intervals',
  'active_time_intervals',
  'labels',
  'routes',
] as const;

/** The values the root route inherits from (`dispatch.DefaultRouteOpts`). */
const ROOT_DEFAULTS: Pick<
  Route,
  'receiver' | 'group_by' | 'group_wait' | 'group_interval' | 'repeat_interval' | 'labels'
> = {
  receiver: '',
  group_by: [],
  group_wait: 30_000,
  group_interval: 5 * 60_000,
  repeat_interval: 4 * 60 * 60_000,
  labels: {},
};

/**
 * Decodes a route and its children. Children inherit `receiver`, `group_by` and the timers
 * from their parent; an explicit `group_by: []` overrides (0.31+). Time intervals are not
 * inherited.
 */
export function decodeRoute(
  value: YamlValue,
  parent: Pick<Route, keyof typeof ROOT_DEFAULTS> = ROOT_DEFAULTS,
): RouteSource {
  const r = value.object(KEYS);
  const groupBy = r.has('group_by') ? decodeGroupBy(r.get('group_by')) : undefined;
  const labels: Record<string, string> = {};
  for (const [name, item] of r.get('labels').entries()) {
    if (!isValidLabelName(name))
      item.fail(`invalid label name ${JSON.stringify(name)} in route labels`);
    labels[name] = item.string();
  }
  const route: Route = {
    receiver: r.string('receiver') || parent.receiver,
    group_by: groupBy ?? [...parent.group_by],
    continue: r.bool('continue'),
    match: decodeMatchMap(r.get('match')),
    match_re: decodeMatchReMap(r.get('match_re')),
    matchers: decodeMatchers(r.get('matchers')),
    group_wait: r.duration('group_wait', parent.group_wait),
    group_interval: nonZero(r.get('group_interval'), 'group_interval', parent.group_interval),
    repeat_interval: nonZero(r.get('repeat_interval'), 'repeat_interval', parent.repeat_interval),
    mute_time_intervals: r.get('mute_time_intervals').stringList(),
    active_time_intervals: r.get('active_time_intervals').stringList(),
    labels: { ...parent.labels, ...labels },
    routes: [],
  };
  const children = r
    .get('routes')
    .list()
    .map((child) => decodeRoute(child, route));
  route.routes = children.map((child) => child.route);
  return { reader: r, route, children };
}

function decodeGroupBy(value: YamlValue): string[] {
  const items = value.list();
  const names = items.map((item) => item.string());
  items.forEach((item, i) => {
    if (names[i] !== '...' && !isValidLabelName(names[i])) {
      item.fail(`invalid label name ${JSON.stringify(names[i])} in group_by list`);
    }
  });
  if (names.includes('...') && names.some((n) => n !== '...')) {
    value.fail('cannot have wildcard group_by (`...`) and other labels at the same time');
  }
  names.forEach((name, i) => {
    if (name !== '...' && names.indexOf(name) !== i) {
      items[i].fail(`duplicated label ${JSON.stringify(name)} in group_by`);
    }
  });
  return names.includes('...') ? ['...'] : names;
}

function nonZero(value: YamlValue, key: string, inherited: number): number {
  if (value.isNull) return inherited;
  const ms = value.duration();
  if (ms === 0) value.fail(`${key} cannot be zero`);
  return ms;
}

/** All matchers of a route (deprecated `match` / `match_re` included), sorted. */
export function routeMatchers(route: Route): Matcher[] {
  return combineMatchers(route.match, route.match_re, route.matchers);
}
