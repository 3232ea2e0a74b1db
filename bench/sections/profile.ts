import { profileCases, runProfileCase } from "../profile/cases.ts";
import { withProfiledWorker } from "../profile/profiled-worker.ts";
import { profileCaseLines, profileFigures, profileMethodLines } from "../profile/report.ts";
import { fixed } from "../report/markdown.ts";
import type { BenchSection } from "./section.ts";

/**
 * Where the Worker's isolate spends its time under each profile case, by stage of the data path
 * and by function, on a Worker of its own; the delivery case's delivery stages also go to the
 * Targets table, beside the CPU per datum-delivery measured by the four-observers section.
 */
export const profileSection: BenchSection = async ({ settings, targets, progress }) => {
  const { profileSeconds: seconds, concurrency } = settings;
  const lines = profileMethodLines(seconds, concurrency);
  await withProfiledWorker(async (worker) => {
    for (const profileCase of profileCases) {
      progress(`profile: ${profileCase.title}`);
      const run = await runProfileCase({ ...worker, concurrency, seconds }, profileCase);
      const figures = profileFigures(profileCase, run);
      lines.push("", ...profileCaseLines(profileCase, run, figures));
      if (profileCase.id === "four-observers") {
        targets.annotate(
          "cpu-per-delivery",
          `delivery path alone ${fixed(figures.deliveryPathPerDelivery, 2)} µs (profile section: the isolate's ` +
            "busy time in its delivery stages ÷ datum-deliveries)",
        );
      }
    }
  });
  return lines;
};
