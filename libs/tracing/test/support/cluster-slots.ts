import type { RedisClusterNode } from '@redisx/testing';

/** What the slot helpers need of an ioredis `Redis` connected to one master. */
interface NodeConnection {
  call(command: string, ...args: string[]): Promise<unknown>;
}

const SLOTS = 16384;

/** CRC16-XMODEM, the hash Redis Cluster maps keys to slots with. */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The slot of `key`, honouring a `{hash tag}`. */
export function slotOf(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return crc16(close > open + 1 ? key.slice(open + 1, close) : key) % SLOTS;
}

/**
 * The slot map of a test cluster, read from the masters themselves, with a connection per master:
 * finds keys served by a given master and hands slots from one master to another, which leaves a
 * client's slot map stale until a MOVED reply corrects it.
 */
export class ClusterSlots {
  private readonly owners = new Array<number>(SLOTS).fill(0);
  private readonly ids = new Map<number, string>();
  private tags = 0;

  constructor(
    private readonly prefix: string,
    private readonly connections: Map<number, NodeConnection>,
  ) {}

  /** Reads the node ids and CLUSTER SLOTS. */
  async load(nodes: RedisClusterNode[]): Promise<this> {
    for (const node of nodes) {
      this.ids.set(node.port, String(await this.connection(node.port).call('CLUSTER', 'MYID')));
    }
    const ranges = (await this.connection(nodes[0].port).call('CLUSTER', 'SLOTS')) as [
      number,
      number,
      [string, number],
    ][];
    for (const [from, to, [, port]] of ranges) this.owners.fill(port, from, to + 1);
    return this;
  }

  /** The port of the master serving `key`. */
  ownerOf(key: string): number {
    return this.owners[slotOf(key)];
  }

  /** A new key `<prefix>:{tag}:<name>` in a slot without keys, served by the master on `port`. */
  async keyOn(port: number, name: string): Promise<string> {
    for (;;) {
      const key = `${this.prefix}:{t${this.tags++}}:${name}`;
      const slot = String(slotOf(key));
      if (this.ownerOf(key) !== port) continue;
      if ((await this.connection(port).call('CLUSTER', 'COUNTKEYSINSLOT', slot)) === 0) return key;
    }
  }

  /** Hands the slot of `key`, which must hold no keys, from its master to the one on `port`. */
  async moveSlot(key: string, port: number): Promise<void> {
    const slot = String(slotOf(key));
    const toId = this.ids.get(port) as string;
    await this.migrateSlot(key, port);
    await this.connection(port).call('CLUSTER', 'SETSLOT', slot, 'NODE', toId);
    await this.connection(this.ownerOf(key)).call('CLUSTER', 'SETSLOT', slot, 'NODE', toId);
    this.owners[Number(slot)] = port;
  }

  /**
   * Starts handing the slot of `key` from its master to the one on `port`, as {@link moveSlot}
   * does without completing it: until it completes, the old master answers `ASK` for the keys of
   * the slot it does not hold, and the new one serves them after `ASKING`.
   */
  async migrateSlot(key: string, port: number): Promise<void> {
    const slot = String(slotOf(key));
    const from = this.ownerOf(key);
    const fromId = this.ids.get(from) as string;
    const toId = this.ids.get(port) as string;
    await this.connection(port).call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', fromId);
    await this.connection(from).call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', toId);
  }

  private connection(port: number): NodeConnection {
    const connection = this.connections.get(port);
    if (connection === undefined) throw new Error(`no connection to the master on port ${port}`);
    return connection;
  }
}
