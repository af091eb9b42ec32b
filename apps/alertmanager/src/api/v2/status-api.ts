import { buildInfo } from '../../build/build-info';
import { serializeConfig, type AlertmanagerConfig } from '../../config';
import type { LabelSet } from '../../labels';
import { matchesFilter, parseReceiverMatchers } from './alert-query';
import { formatTime } from './gettable-alert';

/** What {@link StatusApi} is built from. */
export interface StatusApiDeps {
  /** The running configuration, read per request so reloads show. */
  config: () => AlertmanagerConfig;
  /** When the server started (ms), shown as `uptime`. */
  startedAt: number;
  /** The replicas of the cluster (this one first), when clustered through Redis. */
  clusterPeers?: () => readonly { name: string; address: string }[];
}

/** The bodies of `GET /api/v2/status` and `GET /api/v2/receivers`. */
export class StatusApi {
  constructor(private readonly deps: StatusApiDeps) {}

  /** alertmanagerStatus, with keys in go-swagger's (alphabetical) order. */
  status(): unknown {
    const info = buildInfo();
    return {
      cluster: this.cluster(),
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

  /** Upstream's clusterStatus: this replica's name, `ready`, and the replicas seen. */
  private cluster(): unknown {
    const peers = this.deps.clusterPeers?.();
    if (!peers || peers.length === 0) return { peers: [], status: 'disabled' };
    return {
      name: peers[0].name,
      peers: peers.map((p) => ({ address: p.address, name: p.name })),
      status: 'ready',
    };
  }

  /**
   * The receivers of the config with their labels, in config order; with `receiver_matchers`,
   * those whose labels pass them (upstream 0.33+). Throws with upstream's 400 body.
   */
  receivers(params = new URLSearchParams()): Array<{ name: string; labels: LabelSet }> {
    const matchers = parseReceiverMatchers(params);
    return this.deps
      .config()
      .receivers.filter((r) => matchers.length === 0 || matchesFilter(matchers, r.labels))
      .map((r) => ({ name: r.name, labels: { ...r.labels } }));
  }

  /** Each receiver's labels by name, for `receiver_matchers` on alerts and groups. */
  receiverLabels(): ReadonlyMap<string, LabelSet> {
    return new Map(this.deps.config().receivers.map((r) => [r.name, r.labels]));
  }
}
