import net from 'node:net';

/** Codes of the untyped requests a client may send before its startup message. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** The text of a simple query ('Q') or of a statement being parsed ('P'), else undefined. */
function statementText(type: number, payload: Buffer): string | undefined {
  if (type === 0x51) return payload.toString('utf8', 0, Math.max(0, payload.indexOf(0)));
  if (type === 0x50) {
    const nameEnd = payload.indexOf(0);
    return payload.toString('utf8', nameEnd + 1, payload.indexOf(0, nameEnd + 1));
  }
  return undefined;
}

/** One client connection through the proxy, reading the client's messages as they pass. */
class ProxiedConnection {
  private pending = Buffer.alloc(0);
  private started = false;
  /** The open transaction wrote a statement the proxy was asked to watch for. */
  private watched = false;
  /** A COMMIT of a watched transaction went to the server; its answer is not passed on. */
  private cutOnAnswer = false;

  constructor(
    readonly client: net.Socket,
    readonly server: net.Socket,
    private readonly proxy: PostgresProxy,
  ) {
    client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    server.on('data', (chunk: Buffer) => this.fromServer(chunk));
    client.on('error', () => this.destroy());
    server.on('error', () => this.destroy());
    client.on('close', () => this.destroy());
    server.on('close', () => this.destroy());
  }

  destroy(): void {
    this.client.destroy();
    this.server.destroy();
    this.proxy.forget(this);
  }

  private fromClient(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (!this.started) {
        if (this.pending.length < 8) break;
        const length = this.pending.readInt32BE(0);
        if (this.pending.length < length) break;
        const code = this.pending.readInt32BE(4);
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) this.started = true;
        this.forward(this.pending.subarray(0, length));
        this.pending = this.pending.subarray(length);
        continue;
      }
      if (this.pending.length < 5) break;
      const length = this.pending.readInt32BE(1) + 1;
      if (this.pending.length < length) break;
      const message = this.pending.subarray(0, length);
      this.pending = this.pending.subarray(length);
      this.inspect(message[0], message.subarray(5));
      this.forward(message);
    }
  }

  private inspect(type: number, payload: Buffer): void {
    const text = statementText(type, payload);
    if (text === undefined) return;
    const cut = this.proxy.cutCommitAfter;
    if (cut && text.includes(cut)) this.watched = true;
    if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) {
      if (this.watched && cut && /^\s*COMMIT\b/i.test(text)) {
        this.cutOnAnswer = true;
        this.proxy.cutCommitAfter = undefined;
      }
      this.watched = false;
    }
  }

  private forward(message: Buffer): void {
    if (!this.server.destroyed) this.server.write(message);
  }

  private fromServer(chunk: Buffer): void {
    if (this.cutOnAnswer) {
      // The server answered the COMMIT: it is durable, and the client never hears of it.
      this.proxy.cutCommits += 1;
      this.destroy();
      return;
    }
    if (!this.client.destroyed) this.client.write(chunk);
  }
}

/**
 * A TCP proxy between Trove and its PostgreSQL that a test controls: it can cut the connection
 * of the next transaction that sent a given statement right after the server has answered its
 * COMMIT (so the change is committed and Trove never learns it), or cut every connection.
 */
export class PostgresProxy {
  /** When set, the next transaction whose statements include this text is cut after COMMIT. */
  cutCommitAfter: string | undefined;
  /** How many commits were cut so far. */
  cutCommits = 0;
  private readonly connections = new Set<ProxiedConnection>();
  private readonly listener: net.Server;
  private port = 0;

  /** While true, every connection is refused at once, as from a stopped server. */
  private refusing = false;

  private constructor(target: { host: string; port: number }) {
    this.listener = net.createServer((client) => {
      if (this.refusing) {
        client.destroy();
        return;
      }
      const server = net.connect(target.port, target.host);
      this.connections.add(new ProxiedConnection(client, server, this));
    });
  }

  /** Listens on a free port of 127.0.0.1 and passes every connection on to `target`. */
  static async start(target: { host: string; port: number }): Promise<PostgresProxy> {
    const proxy = new PostgresProxy(target);
    await new Promise<void>((resolve) => proxy.listener.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.listener.address() as net.AddressInfo).port;
    return proxy;
  }

  /** `url` (a PostgreSQL URL) with its host and port turned to this proxy. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Plays a stopped server: cuts every connection and refuses new ones until `resume()`. */
  stop(): void {
    this.refusing = true;
    this.cutAll();
  }

  /** Passes connections on again. */
  resume(): void {
    this.refusing = false;
  }

  /** Cuts every open connection at once, as a network failure would. */
  cutAll(): void {
    for (const connection of [...this.connections]) connection.destroy();
  }

  forget(connection: ProxiedConnection): void {
    this.connections.delete(connection);
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.listener.close(() => resolve()));
  }
}
