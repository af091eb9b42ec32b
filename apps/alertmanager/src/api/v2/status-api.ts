import { buildInfo } from '../../build/build-info';
import { serializeConfig, type AlertmanagerConfig } from '../../config';
import { formatTime } from './gettable-alert';

/** What {@link StatusApi} is built from. */
export interface StatusApiDeps {
  /** The running configuration, read per request so reloads show. */
  config: () => AlertmanagerConfig;
  /** When the server started (ms), shown as `uptime`. */
  startedAt: number;
}

/** The bodies of `GET /api/v2/status` and `GET /api/v2/receivers`. */
export class StatusApi {
  constructor(private readonly deps: StatusApiDeps) {}

  /** alertmanagerStatus, with keys in go-swagger's (alphabetical) order. */
  status(): unknown {
    const info = buildInfo();
    return {
      cluster: { peers: [], status: 'disabled' },
      config: { original: serializeConfig(this.deps.config()) },
      uptime: formatTime(this.deps.startedAt),
      versionInfo: {
        branch: '',
        buildDate: '',
        buildUser: '',
        goVersion: info.nodeVersion,
        revision: '',
        version: info.version,
      },
    };
  }

  /** Every receiver of the config, in config order. */
  receivers(): Array<{ name: string }> {
    return this.deps.config().receivers.map((r) => ({ name: r.name }));
  }
}
