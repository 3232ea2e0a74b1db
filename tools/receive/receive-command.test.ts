import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { readOptions, startReceivers } from "./receive-command.ts";

describe("readOptions", () => {
  it("reads the receivers' ports, the secret and the host", () => {
    expect(readOptions(["--http", "9000", "--tcp", "2013", "--udp", "8099", "--secret", "s"])).toEqual({
      http: 9000,
      tcp: 2013,
      udp: 8099,
      secret: "s",
      host: "127.0.0.1",
    });
    expect(readOptions(["--udp", "8099", "--host", "::1"])).toMatchObject({ udp: 8099, host: "::1" });
  });

  it.each([
    [[], /at least one receiver/],
    [["--http", "ninety"], /--http takes a port, a whole number from 0 to 65535, not "ninety"/],
    [["--http", "70000"], /--http takes a port/],
    [["--htp", "9000"], /Unknown option '--htp'/],
  ])("refuses %j, saying why", (args, message) => {
    expect(() => readOptions(args)).toThrow(message);
  });
});

describe("startReceivers", () => {
  it("announces each receiver with its address", async () => {
    const lines: string[] = [];
    const receivers = await startReceivers({ http: 0, tcp: 0, udp: 0, secret: "s", host: "127.0.0.1" }, (line) =>
      lines.push(line),
    );
    expect(lines).toEqual([
      expect.stringMatching(/^receiving HTTP on http:\/\/127\.0\.0\.1:\d+\/, checking signatures$/),
      expect.stringMatching(/^receiving TCP on 127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^receiving UDP on 127\.0\.0\.1:\d+$/),
    ]);
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  it("closes what it started when a port is taken", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    const { port } = taken.address() as { port: number };
    const lines: string[] = [];
    await expect(startReceivers({ http: 0, tcp: port, host: "127.0.0.1" }, (line) => lines.push(line))).rejects.toThrow(
      /EADDRINUSE/,
    );
    // The HTTP receiver started first was closed again: its port is free.
    const httpPort = Number(/:(\d+)\/$/.exec(lines[0]!)?.[1]);
    const again = createServer().listen(httpPort, "127.0.0.1");
    await new Promise((resolve, reject) => again.once("listening", resolve).once("error", reject));
    again.close();
    taken.close();
  });
});
