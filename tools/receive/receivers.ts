import { createSocket } from "node:dgram";
import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { signWebhook } from "../../src/worker/delivery/transports/webhook-signature.ts";

/*
 * Receivers of what the service's observers are sent, for a person trying the service: each
 * prints what arrives, as it arrives, and answers as a healthy observer does.
 */

/** Where a receiver's lines go: the console, or a test's list. */
export type Print = (line: string) => void;

export interface Receiver {
  /** The port it listens on (the one asked for, or the one the system gave for 0). */
  readonly port: number;
  close(): Promise<void>;
}

const clock = () => new Date().toISOString().slice(11, 23);

/**
 * Whether one of the delivery's signatures (several during a secret's rotation, space-separated)
 * is the one `secret` makes, by the scheme the service signs with (Standard Webhooks).
 */
export async function verifiesSignature(secret: string, headers: IncomingMessage["headers"], body: string) {
  const id = String(headers["webhook-id"] ?? "");
  const timestamp = Number(headers["webhook-timestamp"]);
  const given = String(headers["webhook-signature"] ?? "").split(" ");
  if (!id || !Number.isInteger(timestamp)) return false;
  const expected = (await signWebhook([secret], id, timestamp, body))["webhook-signature"];
  return given.includes(expected!);
}

/** What the receiver says of a delivery's signature: nothing without a secret to check it with. */
async function signatureNote(secret: string | undefined, request: IncomingMessage, body: string): Promise<string> {
  if (secret === undefined) return "";
  if (request.headers["webhook-signature"] === undefined) return "  NOT SIGNED";
  return (await verifiesSignature(secret, request.headers, body)) ? "  signature valid" : "  signature NOT VALID";
}

/** Starts `server` (HTTP or TCP) listening; resolves once it does, with the port it took. */
function listen(server: HttpServer | TcpServer, port: number, host: string): Promise<Receiver> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () =>
      resolve({
        port: (server.address() as { port: number }).port,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}

/** An HTTP receiver: prints each request (its webhook-id, whether its signature holds) and its body; answers 204. */
export function receiveHttp(port: number, host: string, print: Print, secret?: string): Promise<Receiver> {
  const server = createHttpServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const id = request.headers["webhook-id"] ? `  webhook-id ${request.headers["webhook-id"]}` : "";
    const type = request.headers["content-type"] ?? "no content type";
    const signature = await signatureNote(secret, request, body);
    print(
      `[${clock()}] HTTP ${request.method} ${request.url}  ${type}, ${chunks.length ? body.length : 0} characters${id}${signature}`,
    );
    if (body) print(body.trimEnd());
    response.writeHead(204).end();
  });
  return listen(server, port, host);
}

/** A TCP receiver (GRAPHITE, INFLUXDB line protocol): prints each line as it arrives. */
export function receiveTcp(port: number, host: string, print: Print): Promise<Receiver> {
  const server = createTcpServer((socket) => {
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    let pending = "";
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      const lines = (pending + text).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) print(`[${clock()}] TCP from ${peer}  ${line}`);
    });
    socket.on("end", () => {
      if (pending) print(`[${clock()}] TCP from ${peer}  ${pending}`);
    });
    socket.on("error", () => socket.destroy());
  });
  return listen(server, port, host);
}

/** A UDP receiver: prints each datagram, each of its lines. */
export function receiveUdp(port: number, host: string, print: Print): Promise<Receiver> {
  const socket = createSocket(host.includes(":") ? "udp6" : "udp4");
  socket.on("message", (message, from) => {
    for (const line of message.toString("utf8").trimEnd().split("\n")) {
      print(`[${clock()}] UDP from ${from.address}:${from.port}  ${line}`);
    }
  });
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, host, () =>
      resolve({
        port: socket.address().port,
        close: () => new Promise((done) => socket.close(() => done())),
      }),
    );
  });
}
