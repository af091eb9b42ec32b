import { useState } from 'preact/hooks';
import { api, type RouteDescription, type RouteMatch } from '../api';
import { ErrorNote, Loading } from '../components/status';
import { TextField } from '../components/text-field';
import { useLive } from '../live';

/**
 * The routing tree of the running configuration, and where alerts with given labels would go, as
 * `amtool config routes test` answers it.
 */
export function RoutingPage() {
  const tree = useLive(() => api.routes(), [], 30_000);
  const [labels, setLabels] = useState('');
  const [match, setMatch] = useState<RouteMatch | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const test = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const pairs = labels
      .split(/[,\s]+/)
      .map((pair) => pair.trim())
      .filter((pair) => pair !== '')
      .map((pair) => pair.replace(/^([^=]+)="(.*)"$/, '$1=$2'));
    try {
      setMatch(await api.matchRoutes(pairs));
    } catch (err) {
      setMatch(undefined);
      setError((err as Error).message);
    }
  };
  const matched = new Set(match?.routes ?? []);
  return (
    <section aria-labelledby="routing-title">
      <h1 id="routing-title">Routing</h1>
      <form class="toolbar" onSubmit={test}>
        <TextField
          id="route-labels"
          label="Labels"
          value={labels}
          placeholder="alertname=Down severity=critical"
          onInput={setLabels}
        />
        <button type="submit">Test</button>
      </form>
      <ErrorNote error={error ?? tree.error} />
      {match && (
        <p class="card" role="status" id="route-result">
          Goes to: <strong>{match.receivers.join(', ') || 'nowhere'}</strong>
        </p>
      )}
      <Loading when={tree.loading && !tree.data} />
      {tree.data && (
        <ul class="route-tree" aria-label="routing tree">
          <RouteNode route={tree.data} matched={matched} />
        </ul>
      )}
    </section>
  );
}

function RouteNode({ route, matched }: { route: RouteDescription; matched: Set<string> }) {
  const hit = matched.has(route.id);
  return (
    <li class={`route${hit ? ' route-matched' : ''}`} aria-current={hit ? 'true' : undefined}>
      <div class="route-box">
        <strong class="receiver">{route.receiver}</strong>
        <span class="mono">
          {route.matchers.length > 0 ? `{${route.matchers.join(', ')}}` : '{}'}
        </span>
        {route.continue && <span class="badge">continue</span>}
        <span class="muted">
          group by [{route.groupBy.join(', ')}] · wait {route.groupWait} · interval{' '}
          {route.groupInterval} · repeat {route.repeatInterval}
          {route.muteTimeIntervals.length > 0 && ` · muted ${route.muteTimeIntervals.join(', ')}`}
          {route.activeTimeIntervals.length > 0 &&
            ` · active ${route.activeTimeIntervals.join(', ')}`}
        </span>
      </div>
      {route.routes.length > 0 && (
        <ul>
          {route.routes.map((child) => (
            <RouteNode route={child} matched={matched} key={child.id} />
          ))}
        </ul>
      )}
    </li>
  );
}
