import { api } from '../api';
import { Labels } from '../components/labels';
import { ErrorNote, Loading } from '../components/status';
import { formatTime } from '../format';
import { useLive } from '../live';
import { href } from '../router';

/**
 * Rule groups and their rules: state, health, last evaluation, errors, firing alerts; each
 * expression opens on the graph page.
 */
export function RulesPage() {
  const groups = useLive(() => api.rules(), []);
  return (
    <section aria-labelledby="rules-title">
      <h1 id="rules-title">Rules</h1>
      <ErrorNote error={groups.error} />
      <Loading when={groups.loading && !groups.data} />
      {groups.data && groups.data.length === 0 && (
        <p class="muted">No rule groups (see --rules.config.file).</p>
      )}
      {(groups.data ?? []).map((group) => (
        <article class="card" key={`${group.file}/${group.name}`}>
          <h2>{group.name}</h2>
          <p class="muted">
            {group.file} · every {group.interval}s · last {formatTime(group.lastEvaluation)} in{' '}
            {(group.evaluationTime * 1000).toFixed(1)} ms
          </p>
          <ul class="rules">
            {group.rules.map((rule) => (
              <li class={`rule health-${rule.health}`} key={rule.name + rule.query}>
                <div class="alert-line">
                  {rule.type === 'alerting' && (
                    <span class={`badge badge-${rule.state}`}>{rule.state}</span>
                  )}
                  <strong>{rule.name}</strong>
                  <span class={`badge badge-${rule.health === 'ok' ? 'success' : 'failed'}`}>
                    {rule.health}
                  </span>
                </div>
                <a
                  class="query-link"
                  href={href('/graph', { 'g0.expr': rule.query, 'g0.tab': '1' })}
                  title="Open the expression on the graph page"
                >
                  <code class="query">{rule.query}</code>
                </a>
                {rule.lastError && <p class="error">{rule.lastError}</p>}
                {(rule.alerts ?? []).length > 0 && (
                  <ul class="alerts">
                    {(rule.alerts ?? []).map((alert) => (
                      <li class="alert" key={JSON.stringify(alert.labels)}>
                        <span class={`badge badge-${alert.state}`}>{alert.state}</span>
                        <Labels labels={alert.labels} />
                        <span class="muted">value {alert.value}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </article>
      ))}
    </section>
  );
}
