import { readOptions, startReceivers, usage } from "./receive-command.ts";

/*
 * `npm run receive -- --http 9000 --tcp 2013 --udp 8099 [--secret <secret>] [--host 127.0.0.1]`:
 * receivers for the observers of the README's examples, printing what the service sends them.
 * Exits 2 on a command line it does not take, 1 when a port cannot be listened on.
 */

let options: ReturnType<typeof readOptions>;
try {
  options = readOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${usage}`);
  process.exit(2);
}
try {
  await startReceivers(options, (line) => console.log(line));
} catch (error) {
  console.error(`cannot receive: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
console.log("Ctrl-C stops it.");
