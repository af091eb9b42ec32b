import { useState } from 'preact/hooks';
import { api } from '../api';
import { Labels } from '../components/labels';
import { ErrorNote, Loading } from '../components/status';
import { TextField } from '../components/text-field';
import { formatTime, relative } from '../format';
import { useLive } from '../live';
import { href, navigate, type Location } from '../router';

/**
 * What was sent: each notification's time, receiver and integration, group, alerts, and its
 * outcome after retries (`GET /api/v2/notifications`).
 */
export function HistoryPage({ location }: { location: Location }) {
  const receiver = location.params.get('receiver') ?? undefined;
  const outcome = location.params.get('outcome') ?? undefined;
  const [draft, setDraft] = useState(receiver ?? '');
  const history = useLive(
    () => api.notifications({ receiver, outcome, limit: '200' }),
    [receiver, outcome],
  );
  return (
    <section aria-labelledby="history-title">
      <h1 id="history-title">Notification history</h1>
      <form
        class="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          navigate('/history', { receiver: draft.trim() || undefined, outcome });
        }}
      >
        <TextField id="history-receiver" label="Receiver" value={draft} onInput={setDraft} />
        <div class="field">
          <label for="history-outcome">Outcome</label>
          <select
            id="history-outcome"
            value={outcome ?? ''}
            onChange={(e) =>
              navigate('/history', {
                receiver,
                outcome: (e.target as HTMLSelectElement).value || undefined,
              })
            }
          >
            <option value="">any</option>
            <option value="success">success</option>
            <option value="failed">failed</option>
          </select>
        </div>
        <button type="submit">Apply</button>
      </form>
      <ErrorNote error={history.error} />
      <Loading when={history.loading && !history.data} />
      {history.data && history.data.length === 0 && <p class="muted">Nothing has been sent yet.</p>}
      <ol class="history">
        {(history.data ?? []).map((n) => (
          <li class={`card notification outcome-${n.outcome}`} key={n.id}>
            <div class="alert-line">
              <span class={`badge badge-${n.outcome}`}>{n.outcome}</span>
              <a href={href('/history', { receiver: n.receiver })} class="receiver">
                {n.receiver}
              </a>
              <span class="mono">
                {n.integration}[{n.index}]
              </span>
              <span title={formatTime(n.at)}>{relative(n.at)}</span>
              <span class="muted">
                {n.attempts} attempt{n.attempts === 1 ? '' : 's'}
                {n.reason ? ` · ${n.reason}` : ''}
              </span>
            </div>
            <Labels labels={n.groupLabels} />
            {n.error && <p class="error">{n.error}</p>}
            <details>
              <summary>
                {n.alerts.length} alert{n.alerts.length === 1 ? '' : 's'} (
                {n.alerts.filter((a) => a.status === 'firing').length} firing)
              </summary>
              <ul class="alerts">
                {n.alerts.map((a) => (
                  <li key={a.fingerprint} class="alert">
                    <span class={`badge badge-${a.status}`}>{a.status}</span>
                    <Labels labels={a.labels} />
                  </li>
                ))}
              </ul>
              <p class="muted mono">{n.groupKey}</p>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
