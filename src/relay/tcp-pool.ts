import { connect, type Socket } from "node:net";
import { setImmediate as nextEventLoopTurn } from "node:timers/promises";
import type { DestinationPolicy, ResolvedAddress } from "./destination-policy.ts";

/** Probes an idle connection, so that a receiver that vanished without closing (host down) is noticed. */
const keepAliveDelayMs = 30_000;

export interface TcpPoolOptions {
  connectTimeoutMs: number;
  /** How long one write may wait for the receiver to take its bytes before the connection is dropped. */
  writeTimeoutMs: number;
  /** Bytes accepted for one destination and not yet handed to the kernel; deliveries beyond fail. */
  maxQueuedBytes: number;
  /** An unused connection is closed after this long, so removed observers do not hold sockets. */
  idleTimeoutMs: number;
}

/** A socket and the first reason it failed, which is what its failed writes report. */
class Connection {
  failure: Error | undefined;
  closed = false;

  constructor(readonly socket: Socket) {
    socket.on("error", (error) => {
      this.failure ??= error;
    });
    // 'end' is the receiver's FIN: the connection is of no further use even before it fully closes.
    socket.on("end", () => {
      this.closed = true;
    });
    socket.on("close", () => {
      this.closed = true;
    });
    // Receivers are not expected to talk back; reading (and discarding) is what makes their FIN visible.
    socket.resume();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.socket.destroy(error);
  }

  /** Closes gracefully (bytes already written still go out); the next delivery opens a new connection. */
  retire(): void {
    this.closed = true;
    this.socket.end();
  }

  /** Resolves once connected; fails the socket after `timeoutMs`. */
  established(timeoutMs: number, label: string): Promise<void> {
    return this.settleOn("connect", timeoutMs, `connecting to ${label} timed out after ${timeoutMs} ms`);
  }

  /** Resolves once the socket's buffer has room again; fails the socket after `timeoutMs`. */
  drained(timeoutMs: number, label: string): Promise<void> {
    if (!this.socket.writableNeedDrain) return Promise.resolve();
    return this.settleOn("drain", timeoutMs, `${label} did not read its data within ${timeoutMs} ms`);
  }

  write(payload: Buffer, timeoutMs: number, label: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new Error(`writing to ${label} timed out after ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.socket.write(payload, (error) => {
        clearTimeout(timer);
        // Node calls back without an error for a write cut short by destroy(), so a destroyed
        // socket means the bytes may not have been written.
        if (error || this.failure || this.socket.destroyed) {
          reject(this.failure ?? error ?? new Error("the connection closed before the bytes were written"));
        } else {
          resolve();
        }
      });
    });
  }

  private settleOn(event: "connect" | "drain", timeoutMs: number, timeoutMessage: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(timeoutMessage)), timeoutMs);
      const settle = (error?: Error) => {
        clearTimeout(timer);
        this.socket.off(event, onEvent).off("close", onClose);
        if (error) reject(error);
        else resolve();
      };
      const onEvent = () => settle();
      const onClose = () => settle(this.failure ?? new Error("the connection closed"));
      this.socket.on(event, onEvent).on("close", onClose);
    });
  }
}

/**
 * Deliveries to one host:port. They pass through a queue so that their bytes reach the socket in
 * the order they were accepted, even across a (re)connect; each resolves once its write callback
 * reported the bytes handed to the kernel.
 */
class TcpChannel {
  private connection: Connection | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private queuedBytes = 0;
  private pending = 0;
  private abortReason: Error | undefined;
  /** Failed attempts to resolve or connect, and the latest one's reason. */
  private connectFailures = 0;
  private lastConnectFailure: Error | undefined;
  private readonly label: string;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly policy: DestinationPolicy,
    private readonly options: TcpPoolOptions,
    private readonly onIdle: () => void,
  ) {
    this.label = `${host}:${port}`;
  }

  deliver(payload: Buffer): Promise<void> {
    if (this.abortReason) return Promise.reject(this.abortReason);
    const { maxQueuedBytes } = this.options;
    if (this.queuedBytes + payload.length > maxQueuedBytes) {
      return Promise.reject(
        new Error(`${this.queuedBytes} bytes are already waiting for ${this.label}; the limit is ${maxQueuedBytes}`),
      );
    }
    this.queuedBytes += payload.length;
    this.pending += 1;
    const failuresBefore = this.connectFailures;
    // The write is started in queue order; its completion is awaited outside the queue, so the
    // next delivery's bytes can follow into the socket buffer while these are still flushing.
    const started = this.queue.then(() => this.startWrite(payload, failuresBefore));
    this.queue = started.catch(() => undefined);
    return started
      .then(({ written }) => written)
      .finally(() => {
        this.queuedBytes -= payload.length;
        this.pending -= 1;
        this.releaseIfIdle();
      });
  }

  /** Fails every delivery under way or waiting, and closes the connection. */
  abort(reason: Error): void {
    this.abortReason = reason;
    this.connection?.fail(reason);
  }

  private async startWrite(payload: Buffer, failuresBefore: number): Promise<{ written: Promise<void> }> {
    const connection = await this.usableConnection(failuresBefore);
    await connection.drained(this.options.writeTimeoutMs, this.label);
    return { written: connection.write(payload, this.options.writeTimeoutMs, this.label) };
  }

  private async usableConnection(failuresBefore: number): Promise<Connection> {
    if (this.connection && !this.connection.closed) {
      // A receiver that closed (e.g. restarted) while the connection sat idle may have its FIN
      // waiting to be read; a write now would "succeed" into a dead socket and be lost. One turn
      // of the event loop lets that 'end' arrive first.
      await nextEventLoopTurn();
    }
    if (this.abortReason) throw this.abortReason;
    if (this.connection && !this.connection.closed) return this.connection;
    // Deliveries that waited while an attempt failed share its failure: otherwise each of them
    // would wait out a connect timeout of its own towards an unreachable receiver. The next
    // delivery accepted after the failure tries again.
    if (this.connectFailures > failuresBefore) throw this.lastConnectFailure!;
    try {
      const address = await this.policy.resolve(this.host, this.port);
      if (this.abortReason) throw this.abortReason;
      return await this.connect(address);
    } catch (error) {
      this.connectFailures += 1;
      this.lastConnectFailure = error as Error;
      throw error;
    }
  }

  private async connect({ address, family }: ResolvedAddress): Promise<Connection> {
    const connection = new Connection(connect({ host: address, port: this.port, family }));
    this.connection = connection;
    connection.socket.once("close", () => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      this.releaseIfIdle();
    });
    await connection.established(this.options.connectTimeoutMs, this.label);
    connection.socket.setNoDelay(true);
    connection.socket.setKeepAlive(true, keepAliveDelayMs);
    connection.socket.setTimeout(this.options.idleTimeoutMs, () => connection.retire());
    return connection;
  }

  private releaseIfIdle(): void {
    if (this.pending === 0 && !this.connection) this.onIdle();
  }
}

/** One kept-open TCP connection per destination, opened on first use and reopened after it ends. */
export class TcpPool {
  private readonly channels = new Map<string, TcpChannel>();
  private closedReason: Error | undefined;

  constructor(
    private readonly policy: DestinationPolicy,
    private readonly options: TcpPoolOptions,
  ) {}

  /**
   * Writes `payload` to host:port, after every payload accepted earlier for the same destination.
   * Resolves once the bytes were handed to the kernel; rejects with the reason otherwise.
   */
  deliver(host: string, port: number, payload: Buffer): Promise<void> {
    if (this.closedReason) return Promise.reject(this.closedReason);
    const key = JSON.stringify([host, port]);
    let channel = this.channels.get(key);
    if (!channel) {
      const created = new TcpChannel(host, port, this.policy, this.options, () => {
        if (this.channels.get(key) === created) this.channels.delete(key);
      });
      this.channels.set(key, created);
      channel = created;
    }
    return channel.deliver(payload);
  }

  /** Fails what is still under way and closes every connection; later deliveries fail with `reason`. */
  close(reason: Error): void {
    this.closedReason = reason;
    for (const channel of this.channels.values()) channel.abort(reason);
    this.channels.clear();
  }
}
