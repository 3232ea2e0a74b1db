import { fetch } from "miniflare";

/*
 * workerd's inspector: the Chrome DevTools protocol over a WebSocket, one target per isolate. The
 * WebSocket is Miniflare's: Node 20 has none without a flag.
 */

/** The protocol over one WebSocket: requests answered by id. */
export interface InspectorSession {
  call<T>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Receives the protocol's events (messages without an id), e.g. a heap snapshot's chunks. */
  onEvent(listener: (method: string, params: unknown) => void): () => void;
  close(): void;
}

/** What the session needs of a WebSocket: Miniflare's, or a fake in tests. */
export interface MessageSocket {
  send(text: string): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** The protocol over an accepted WebSocket. */
export function sessionOver(socket: MessageSocket): InspectorSession {
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Set<(method: string, params: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: unknown;
    };
    if (message.id === undefined) {
      if (message.method !== undefined) for (const listener of listeners) listener(message.method, message.params);
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`inspector: ${message.error.message}`));
    else waiting.resolve(message.result);
  });
  return {
    call<T>(method: string, params: Record<string, unknown> = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) =>
        pending.set(id, { resolve: (result) => resolve(result as T), reject }),
      );
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => socket.close(),
  };
}

/** An isolate as workerd's inspector lists it: its title names the Worker, e.g. "workerd: worker core:user:NAME". */
export interface InspectorTarget {
  title: string;
  webSocketDebuggerUrl: string;
}

/** The isolates of the workerd whose inspector listens on `inspectorPort`. */
export async function inspectorTargets(inspectorPort: number): Promise<InspectorTarget[]> {
  return (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as InspectorTarget[];
}

/** A session with one isolate. */
export async function inspectorSession(target: InspectorTarget): Promise<InspectorSession> {
  const { webSocket: socket } = await fetch(target.webSocketDebuggerUrl.replace(/^ws/, "http"), {
    headers: { upgrade: "websocket" },
  });
  if (!socket) throw new Error(`workerd's inspector refused the WebSocket of ${target.title}`);
  socket.accept();
  return sessionOver(socket);
}
