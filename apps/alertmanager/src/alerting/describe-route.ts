import type { RouteNode } from '../dispatch';
import { formatGoDuration } from '../time/go-duration';
import type { RouteDescription } from './alert-routing';

/** A routing tree node and its children as people read them (see {@link RouteDescription}). */
export function describeRoute(node: RouteNode): RouteDescription {
  const { options } = node;
  return {
    id: node.id,
    receiver: options.receiver,
    matchers: node.matchers.map((matcher) => matcher.toString()),
    continue: node.continue,
    groupBy: options.groupByAll ? ['...'] : [...options.groupBy],
    groupWait: formatGoDuration(options.groupWait),
    groupInterval: formatGoDuration(options.groupInterval),
    repeatInterval: formatGoDuration(options.repeatInterval),
    muteTimeIntervals: [...options.muteTimeIntervals],
    activeTimeIntervals: [...options.activeTimeIntervals],
    routes: node.routes.map(describeRoute),
  };
}
