import { ConfigError } from './config-error';
import type { ObjectReader } from './decoder/object-reader';
import type { YamlValue } from './decoder/yaml-value';
import { decodeGlobal, defaultGlobalConfig } from './global.decoder';
import { decodeInhibitRule } from './inhibit-rule.decoder';
import type { AlertmanagerConfig } from './model/config.model';
import type { Receiver } from './model/receiver.model';
import type { TimeInterval } from './model/time-interval.model';
import { decodeReceiver } from './receiver.decoder';
import { decodeRoute, type RouteSource } from './route.decoder';
import { decodeTimeInterval } from './time-interval.decoder';
import { decodeTracing } from './tracing.decoder';

const KEYS = [
  'global',
  'route',
  'inhibit_rules',
  'receivers',
  'templates',
  'mute_time_intervals',
  'time_intervals',
  'tracing',
];

/**
 * Decodes the whole document and runs upstream's file-level checks: unique receiver and time
 * interval names, root route rules, and references from routes to receivers and intervals.
 */
export function decodeConfig(root: YamlValue): AlertmanagerConfig {
  const r = root.object(KEYS);
  const global = r.has('global') ? decodeGlobal(r.get('global')) : defaultGlobalConfig();
  const templates = r
    .get('templates')
    .stringList()
    .map((glob) => root.ctx.resolvePath(glob));
  const muteTimeIntervals = r
    .get('mute_time_intervals')
    .list()
    .map((v) => decodeTimeInterval(v, 'mute time'));
  const timeIntervals = r
    .get('time_intervals')
    .list()
    .map((v) => decodeTimeInterval(v, 'time'));
  const inhibitRules = r.get('inhibit_rules').list().map(decodeInhibitRule);
  const receivers = decodeReceivers(r.get('receivers'), global);
  const tracing = r.has('tracing') ? decodeTracing(r.get('tracing')) : undefined;
  if (!r.has('route')) throw new ConfigError('no routes provided', root.ctx.file);
  const tree = decodeRoute(r.get('route'));
  checkRootRoute(tree);
  checkReceivers(tree, new Set(receivers.map((receiver) => receiver.name)));
  const intervalNames = checkIntervalNames(r, muteTimeIntervals, timeIntervals);
  checkTimeIntervals(tree, intervalNames);
  if (tree.route.continue) tree.reader.get('continue').fail('cannot have continue in root route');
  return {
    global,
    route: tree.route,
    inhibit_rules: inhibitRules,
    receivers,
    templates,
    mute_time_intervals: muteTimeIntervals,
    time_intervals: timeIntervals,
    tracing,
  };
}

function decodeReceivers(value: YamlValue, global: AlertmanagerConfig['global']): Receiver[] {
  const seen = new Set<string>();
  return value.list().map((item) => {
    const receiver = decodeReceiver(item, global);
    if (seen.has(receiver.name)) {
      const nameField = item.entries().find(([key]) => key === 'name')?.[1] ?? item;
      nameField.fail(`notification config name ${JSON.stringify(receiver.name)} is not unique`);
    }
    seen.add(receiver.name);
    return receiver;
  });
}

function checkRootRoute({ reader, route }: RouteSource): void {
  const fail = (reason: string): never => reader.value.fail(reason);
  if (route.receiver === '') fail('root route must specify a default receiver');
  const matchers =
    Object.keys(route.match).length + Object.keys(route.match_re).length + route.matchers.length;
  if (matchers > 0) fail('root route must not have any matchers');
  if (route.mute_time_intervals.length > 0)
    fail('root route must not have any mute time intervals');
  if (route.active_time_intervals.length > 0) {
    fail('root route must not have any active time intervals');
  }
}

/** Children are checked before their parent, so the deepest mistake is reported, as upstream. */
function checkReceivers(node: RouteSource, names: ReadonlySet<string>): void {
  for (const child of node.children) checkReceivers(child, names);
  if (node.reader.has('receiver') && !names.has(node.route.receiver)) {
    node.reader
      .get('receiver')
      .fail(`undefined receiver ${JSON.stringify(node.route.receiver)} used in route`);
  }
}

function checkIntervalNames(
  r: ObjectReader,
  mute: readonly TimeInterval[],
  active: readonly TimeInterval[],
): Set<string> {
  const names = new Set<string>();
  const lists: Array<[string, readonly TimeInterval[], string]> = [
    ['mute_time_intervals', mute, 'mute time interval'],
    ['time_intervals', active, 'time interval'],
  ];
  for (const [key, intervals, kind] of lists) {
    intervals.forEach((interval, i) => {
      if (names.has(interval.name)) {
        r.get(key)
          .list()
          [i].fail(`${kind} ${JSON.stringify(interval.name)} is not unique`);
      }
      names.add(interval.name);
    });
  }
  return names;
}

function checkTimeIntervals(node: RouteSource, names: ReadonlySet<string>): void {
  for (const child of node.children) checkTimeIntervals(child, names);
  for (const key of ['active_time_intervals', 'mute_time_intervals']) {
    node.reader
      .get(key)
      .list()
      .forEach((item) => {
        if (!names.has(item.string())) {
          item.fail(`undefined time interval ${JSON.stringify(item.string())} used in route`);
        }
      });
  }
}
