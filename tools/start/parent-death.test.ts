import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { eventually } from "../../test/e2e/support/service.ts";
import { isRunning } from "./testing/process-tree.ts";
import { runSnippet } from "./testing/snippet-process.ts";

const parentDeath = fileURLToPath(new URL("parent-death.ts", import.meta.url));

it("tells a process that its parent died, however it died, once", async () => {
  const orphan = runSnippet(
    `import { onParentDeath } from ${JSON.stringify(parentDeath)};
    onParentDeath(() => {
      console.log("parent died");
      // Long enough for a second call, were the check to go on.
      setTimeout(() => process.exit(0), 300);
    }, 50);
    console.log("pid", process.pid);
    setInterval(() => undefined, 1_000);`,
    { parentBetween: true },
  );
  await orphan.waitFor("pid ");
  const pid = Number(orphan.output().match(/pid (\d+)/)![1]);
  expect(orphan.output()).not.toContain("parent died");

  orphan.child.kill("SIGKILL");
  await eventually(() => !isRunning(pid), 10_000);
  expect(orphan.output().match(/parent died/g)).toHaveLength(1);
});
