import { busyMicros, outsideIsolateMicros } from "../../profile/round-profile.ts";
import { stages } from "../../profile/stages.ts";
import { fixed, markdownTable } from "../../report/markdown.ts";
import type { HopProfile } from "./hop-profile.ts";

/*
 * What bounds the pipeline hop's CPU per sample beside vmagent's: the profiled round's stages,
 * summed into the parts of the hop, each as µs per sample and as a multiple of vmagent's total.
 */

/** The parts of the hop, each a few stages of the profile; together they hold every stage once. */
export const hopParts: readonly { part: string; stages: readonly string[] }[] = [
  { part: "decoding and encoding remote write (parse, serialize)", stages: ["parse", "serialize"] },
  {
    part: "the queue hop in the isolate (encode, queue, consumer decode)",
    stages: ["encode", "queue", "consumer decode"],
  },
  {
    part: "making data and choosing series (series to data, selector matching)",
    stages: ["series to data", "selector matching"],
  },
  { part: "Durable Object calls", stages: ["Durable Object calls"] },
  {
    part: "the rest of the Worker's code (validate, send, delivery code, recent data, HTTP routing, other)",
    stages: ["validate", "send", "delivery code", "recent data", "HTTP routing", "other"],
  },
  {
    part: "V8 itself (runtime and native code, garbage collection)",
    stages: ["runtime and native code", "garbage collection"],
  },
];

/**
 * What workerd does beside the isolate. Not split further: workerd runs every isolate on one thread,
 * and the queue broker's isolate, profiled as the Worker's, is sampled busy while the Worker works.
 */
const outsideIsolate = "workerd outside the isolate (sockets, HTTP, Miniflare's queue broker, storage)";

/** Each part's µs per sample, largest first, workerd's time outside the isolate among them. */
export function hopPartMicros(profile: HopProfile): { part: string; micros: number }[] {
  const parts = hopParts.map(({ part, stages: partStages }) => ({
    part,
    micros: partStages.reduce((sum, stage) => sum + (profile.stageMicros.get(stage) ?? 0), 0),
  }));
  parts.push({ part: outsideIsolate, micros: outsideIsolateMicros(profile) });
  return parts.sort((a, b) => b.micros - a.micros);
}

const times = (micros: number, vmagentMicros: number) => `${fixed(micros / vmagentMicros, 2)} ×`;

/**
 * The sentence that says what bounds the ratio: workerd's µs per sample in the profiled round,
 * the JavaScript floor of decoding and encoding both ways, and the parts largest first, each as a
 * multiple of vmagent's CPU per sample.
 */
export function hopBound(profile: HopProfile, vmagentMicros: number): string {
  const parts = hopPartMicros(profile);
  const floor = parts.find(({ part }) => part === hopParts[0]!.part)!.micros;
  const beyondFloor = parts.filter(({ part }) => part !== hopParts[0]!.part);
  return (
    `What bounds it, from the profiled round: workerd's ${fixed(profile.workerdMicros, 2)} µs per sample ` +
    `(${times(profile.workerdMicros, vmagentMicros)} vmagent's ${fixed(vmagentMicros, 2)} µs) hold the JavaScript ` +
    `floor of decoding and encoding remote write, ${fixed(floor, 2)} µs (${times(floor, vmagentMicros)}), and ` +
    `beyond it: ${beyondFloor.map(({ part, micros }) => `${part} ${fixed(micros, 2)} µs (${times(micros, vmagentMicros)})`).join(", ")}.`
  );
}

/** The profiled round's tables: µs per sample by stage and by part, beside vmagent's total; then the largest functions. */
export function hopProfileLines(profile: HopProfile, vmagentMicros: number): string[] {
  const busy = busyMicros(profile);
  const perThousand = (count: number) => fixed((1_000 * count) / profile.samples, 2);
  const { queueMessagesWritten, durableObjectRequests, outboundRequests } = profile.operations;
  return [
    `Profile of the hop: one more round of ${fixed(profile.samples)} samples (lost ${fixed(profile.lost)}) on a ` +
      "Worker of its own as deployed but with workerd's inspector open, after a warm-up, the isolate profiled from " +
      "the first post until the last sample arrived (the profile section's method and stages; busy time is " +
      "wall-clock time sampled, so a busy machine inflates it) and workerd's CPU time over the same stretch. " +
      `Platform operations per 1,000 samples: ${perThousand(queueMessagesWritten)} queue messages, ` +
      `${perThousand(durableObjectRequests)} Durable Object requests, ${perThousand(outboundRequests)} outbound requests.`,
    "",
    ...markdownTable(
      ["stage", "µs per sample", "÷ vmagent's CPU per sample"],
      [
        ...stages.map((stage) => {
          const micros = profile.stageMicros.get(stage) ?? 0;
          return [stage, fixed(micros, 3), times(micros, vmagentMicros)];
        }),
        ["**the isolate, busy**", fixed(busy, 3), times(busy, vmagentMicros)],
        [outsideIsolate, fixed(outsideIsolateMicros(profile), 3), times(outsideIsolateMicros(profile), vmagentMicros)],
        ["**workerd's CPU**", fixed(profile.workerdMicros, 3), times(profile.workerdMicros, vmagentMicros)],
        ["vmagent's CPU (the measured rounds)", fixed(vmagentMicros, 3), times(vmagentMicros, vmagentMicros)],
      ],
    ),
    "",
    ...markdownTable(
      ["part of the hop", "µs per sample", "÷ vmagent's CPU per sample"],
      hopPartMicros(profile).map(({ part, micros }) => [part, fixed(micros, 3), times(micros, vmagentMicros)]),
    ),
    "",
    ...markdownTable(
      ["function", "where", "stage", "µs per sample"],
      profile.functions.map(({ functionName, where, stage, ms }) => [
        functionName,
        where,
        stage,
        fixed((ms * 1_000) / profile.samples, 3),
      ]),
      3,
    ),
  ];
}
