import { parseArgs } from "node:util";
import { type Receiver, receiveHttp, receiveTcp, receiveUdp } from "./receivers.ts";

/* The command line of `npm run receive` (receive.ts), and the receivers it starts. */

export const usage =
  "usage: npm run receive -- [--http PORT] [--tcp PORT] [--udp PORT] [--secret SECRET] [--host ADDRESS]\n" +
  "  at least one of --http, --tcp and --udp; --secret checks the signatures of HTTP deliveries";

export interface ReceiveOptions {
  http?: number;
  tcp?: number;
  udp?: number;
  secret?: string;
  host: string;
}

function port(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    throw new Error(`--${name} takes a port, a whole number from 0 to 65535, not ${JSON.stringify(value)}`);
  }
  return number;
}

/** The command line's options; throws, saying what is wrong, on any it does not take. */
export function readOptions(args: readonly string[]): ReceiveOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      http: { type: "string" },
      tcp: { type: "string" },
      udp: { type: "string" },
      secret: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
    },
    strict: true,
    allowPositionals: false,
  });
  const options = {
    http: port("http", values.http),
    tcp: port("tcp", values.tcp),
    udp: port("udp", values.udp),
    secret: values.secret,
    host: values.host,
  };
  if (options.http === undefined && options.tcp === undefined && options.udp === undefined) {
    throw new Error("name at least one receiver: --http, --tcp or --udp");
  }
  return options;
}

/** Starts the receivers `options` name, each announced with its address. */
export async function startReceivers(options: ReceiveOptions, print: (line: string) => void): Promise<Receiver[]> {
  const { host, secret } = options;
  const receivers: Receiver[] = [];
  try {
    if (options.http !== undefined) {
      const http = await receiveHttp(options.http, host, print, secret);
      receivers.push(http);
      const checks = secret === undefined ? "" : ", checking signatures";
      print(`receiving HTTP on http://${host}:${http.port}/${checks}`);
    }
    if (options.tcp !== undefined) {
      const tcp = await receiveTcp(options.tcp, host, print);
      receivers.push(tcp);
      print(`receiving TCP on ${host}:${tcp.port}`);
    }
    if (options.udp !== undefined) {
      const udp = await receiveUdp(options.udp, host, print);
      receivers.push(udp);
      print(`receiving UDP on ${host}:${udp.port}`);
    }
  } catch (error) {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    throw error;
  }
  return receivers;
}
