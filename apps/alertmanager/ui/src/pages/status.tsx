import { api } from '../api';
import { ErrorNote, Loading } from '../components/status';
import { formatTime, relative } from '../format';
import { useLive } from '../live';

interface Status {
  uptime?: string;
  versionInfo?: Record<string, string>;
  config?: { original?: string };
  cluster?: { status?: string; name?: string; peers?: { name: string; address: string }[] };
}

/** Version, uptime, cluster, the last reload, and the running configuration (secrets hidden). */
export function StatusPage() {
  const status = useLive(() => api.status() as Promise<Status>, [], 15_000);
  const reload = useLive(() => api.metrics().then(reloadState), [], 15_000);
  const data = status.data;
  return (
    <section aria-labelledby="status-title">
      <h1 id="status-title">Status</h1>
      <ErrorNote error={status.error} />
      <Loading when={status.loading && !data} />
      {data && (
        <dl class="card facts">
          <div>
            <dt>Version</dt>
            <dd>
              {data.versionInfo?.['version']} ({data.versionInfo?.['revision']})
            </dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd>
              {formatTime(data.uptime)} ({data.uptime ? relative(data.uptime) : ''})
            </dd>
          </div>
          <div>
            <dt>Cluster</dt>
            <dd>
              {data.cluster?.status ?? 'disabled'}
              {(data.cluster?.peers ?? []).length > 0 &&
                ` · ${data.cluster?.peers?.map((p) => p.name).join(', ')}`}
            </dd>
          </div>
          <div>
            <dt>Last reload</dt>
            <dd id="reload-status">{reload.data ?? ''}</dd>
          </div>
        </dl>
      )}
      {data?.config?.original && (
        <article class="card">
          <h2>Configuration</h2>
          <pre class="config" tabIndex={0}>
            {data.config.original}
          </pre>
        </article>
      )}
    </section>
  );
}

/** The last reload's outcome and time, from the server's own metrics. */
function reloadState(text: string): string {
  const ok = /^alertmanager_config_last_reload_successful (\S+)/m.exec(text)?.[1];
  const at = /^alertmanager_config_last_reload_success_timestamp_seconds (\S+)/m.exec(text)?.[1];
  if (ok === undefined) return 'unknown';
  const when = at ? formatTime(Number(at) * 1000) : '';
  return ok === '1'
    ? `successful, configuration loaded ${when}`
    : `failed (still running the configuration loaded ${when})`;
}
