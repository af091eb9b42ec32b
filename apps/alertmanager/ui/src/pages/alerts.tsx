import { useMemo, useState } from 'preact/hooks';
import { api, type AlertGroup, type GettableAlert } from '../api';
import {
  AlertTraceLinks,
  useAlertTraceSource,
  type AlertTraceSource,
} from '../components/alert-traces';
import { Annotations, Labels } from '../components/labels';
import { MatcherInput } from '../components/matcher-input';
import { ErrorNote, Loading } from '../components/status';
import { formatTime, relative } from '../format';
import { useLive } from '../live';
import { formatMatcher, matchersForLabels, splitMatchers } from '../matchers';
import { href, navigate, type Location } from '../router';

/**
 * Alerts as the dispatcher groups them (receiver, group labels), filtered by matchers in the
 * API's syntax, with toggles for silenced and inhibited alerts, what mutes each alert, and with
 * `--web.trace-url` the traces behind each rule alert.
 */
export function AlertsPage({ location }: { location: Location }) {
  const filterText = location.params.get('filter') ?? '';
  const silenced = location.params.get('silenced') === 'true';
  const inhibited = location.params.get('inhibited') === 'true';
  const receiver = location.params.get('receiver') ?? undefined;
  const [draft, setDraft] = useState(filterText);
  const filter = useMemo(() => splitMatchers(filterText), [filterText]);
  const groups = useLive(
    () => api.groups({ filter, active: true, silenced, inhibited, receiver }),
    [filterText, silenced, inhibited, receiver],
  );
  const known = useMemo(
    () => (groups.data ?? []).flatMap((g) => g.alerts.map((a) => a.labels)),
    [groups.data],
  );
  const go = (changes: Record<string, string | undefined>) =>
    navigate('/alerts', {
      filter: filterText,
      silenced: silenced ? 'true' : undefined,
      inhibited: inhibited ? 'true' : undefined,
      receiver,
      ...changes,
    });
  const count = (groups.data ?? []).reduce((n, g) => n + g.alerts.length, 0);
  const inhibitors = useInhibitors(groups.data);
  const traces = useAlertTraceSource(groups.data);
  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">Alerts</h1>
      <form
        class="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          go({ filter: draft.trim() || undefined });
        }}
      >
        <MatcherInput
          id="alert-filter"
          label="Filter"
          value={draft}
          onInput={setDraft}
          known={known}
        />
        <button type="submit">Apply</button>
        <label class="toggle">
          <input
            type="checkbox"
            checked={silenced}
            onChange={() => go({ silenced: silenced ? undefined : 'true' })}
          />
          Silenced
        </label>
        <label class="toggle">
          <input
            type="checkbox"
            checked={inhibited}
            onChange={() => go({ inhibited: inhibited ? undefined : 'true' })}
          />
          Inhibited
        </label>
      </form>
      {receiver && (
        <p class="muted">
          Receiver <strong>{receiver}</strong> only. <a href={href('/alerts')}>Show all</a>
        </p>
      )}
      <ErrorNote error={groups.error} />
      <Loading when={groups.loading && !groups.data} />
      {groups.data && (
        <p class="muted" aria-live="polite">
          {count} alert{count === 1 ? '' : 's'} in {groups.data.length} group
          {groups.data.length === 1 ? '' : 's'}
        </p>
      )}
      {(groups.data ?? []).map((group) => (
        <Group
          group={group}
          inhibitors={inhibitors}
          traces={traces}
          key={`${group.receiver.name}|${JSON.stringify(group.labels)}`}
        />
      ))}
    </section>
  );
}

/**
 * The alerts that inhibit the listed ones, by fingerprint, so each inhibited alert can name its
 * source; asked for only while some listed alert is inhibited.
 */
function useInhibitors(groups: AlertGroup[] | undefined): Map<string, GettableAlert> {
  const wanted = (groups ?? [])
    .flatMap((g) => g.alerts.flatMap((a) => a.status.inhibitedBy))
    .sort()
    .join(',');
  const all = useLive(() => (wanted === '' ? Promise.resolve([]) : api.alerts([])), [wanted]);
  return useMemo(
    () => new Map((all.data ?? []).map((alert) => [alert.fingerprint, alert])),
    [all.data],
  );
}

function Group({
  group,
  inhibitors,
  traces,
}: {
  group: AlertGroup;
  inhibitors: Map<string, GettableAlert>;
  traces: AlertTraceSource;
}) {
  const groupNames = Object.keys(group.labels);
  return (
    <article class="card group" aria-label={`group ${JSON.stringify(group.labels)}`}>
      <header class="group-header">
        <span class="receiver">{group.receiver.name}</span>
        {groupNames.length > 0 ? <Labels labels={group.labels} /> : <em>all alerts</em>}
      </header>
      <ul class="alerts">
        {group.alerts.map((alert) => (
          <AlertItem
            alert={alert}
            skip={groupNames}
            inhibitors={inhibitors}
            traces={traces}
            key={alert.fingerprint}
          />
        ))}
      </ul>
    </article>
  );
}

function AlertItem({
  alert,
  skip,
  inhibitors,
  traces,
}: {
  alert: GettableAlert;
  skip: string[];
  inhibitors: Map<string, GettableAlert>;
  traces: AlertTraceSource;
}) {
  const { state, silencedBy, inhibitedBy } = alert.status;
  const muted = alert.status.mutedBy ?? [];
  const silenceHref = href('/silences/new', {
    matchers: matchersForLabels(alert.labels).map(formatMatcher).join(', '),
  });
  return (
    <li class={`alert state-${state}`} data-fingerprint={alert.fingerprint}>
      <div class="alert-line">
        <span class={`badge badge-${state}`}>{state}</span>
        <Labels labels={alert.labels} skip={skip} />
      </div>
      <Annotations annotations={alert.annotations} />
      <div class="alert-meta">
        <span title={formatTime(alert.startsAt)}>started {relative(alert.startsAt)}</span>
        {alert.generatorURL && (
          <a href={alert.generatorURL} target="_blank" rel="noopener noreferrer">
            source
          </a>
        )}
        <AlertTraceLinks alert={alert} source={traces} />
        <a class="button-link" href={silenceHref}>
          Silence
        </a>
      </div>
      {silencedBy.length > 0 && (
        <p class="muted-by">
          Silenced by{' '}
          {silencedBy.map((id) => (
            <a href={href(`/silences/${id}`)} key={id} class="mono">
              {id.slice(0, 8)}
            </a>
          ))}
        </p>
      )}
      {inhibitedBy.length > 0 && (
        <p class="muted-by">
          Inhibited by{' '}
          {inhibitedBy.map((fp) => {
            const source = inhibitors.get(fp);
            return source ? (
              <span class="inhibitor" key={fp} title={`fingerprint ${fp}`}>
                <Labels labels={source.labels} />
              </span>
            ) : (
              <span class="mono" key={fp}>
                {fp}
              </span>
            );
          })}
        </p>
      )}
      {muted.length > 0 && <p class="muted-by">Muted by time intervals: {muted.join(', ')}</p>}
    </li>
  );
}
