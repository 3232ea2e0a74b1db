import { stronglyConnected } from "./strongly-connected";

/** A step between named nodes: a rule reads the metric `from` and writes the metric `to`. */
export interface Step {
  from: string;
  to: string;
}

/** What a walk shows in place of the nodes it leaves out. */
export const elided = "…";

/** The most nodes a walk shows of each of its two halves; a longer half is shown by its ends. */
const shownPerHalf = 6;

/** Breadth-first paths between one node of a component and the others, within the component. */
interface Paths {
  /** Each node's next node towards the turning node. */
  towards: Map<number, number>;
  /** Each node's previous node on the way from the turning node. */
  from: Map<number, number>;
}

/**
 * For each step of `steps` at the indexes `asked`: undefined when it is on no cycle, else a closed
 * walk through it, as node names: the step's `from`, its `to`, and on back to its `from`. The walk
 * goes through one node of the step's strongly connected component (the turning node, the same for
 * every step of the component), so that every walk is built from two search trees of the component:
 * the work is linear in the steps however many of them lie on one long cycle. A half of a walk
 * longer than a few nodes is shown by its ends, with `elided` between them.
 */
export function cycleWalks(steps: readonly Step[], asked: readonly number[]): (string[] | undefined)[] {
  const names: string[] = [];
  const numbers = new Map<string, number>();
  const number = (name: string) => {
    let known = numbers.get(name);
    if (known === undefined) {
      known = names.push(name) - 1;
      numbers.set(name, known);
    }
    return known;
  };
  const numbered = steps.map((step) => ({ from: number(step.from), to: number(step.to) }));
  const successors = names.map((): number[] => []);
  const predecessors = names.map((): number[] => []);
  for (const { from, to } of numbered) {
    successors[from]!.push(to);
    predecessors[to]!.push(from);
  }
  const component = stronglyConnected(successors);
  const pathsOfComponent = new Map<number, { turn: number; paths: Paths }>();

  const pathsThrough = (turn: number): Paths => {
    const within = (neighbours: readonly (readonly number[])[]) => {
      const previous = new Map<number, number>();
      const pending = [turn];
      for (let index = 0; index < pending.length; index++) {
        const node = pending[index]!;
        for (const next of neighbours[node]!) {
          if (next === turn || previous.has(next) || component[next] !== component[turn]) continue;
          previous.set(next, node);
          pending.push(next);
        }
      }
      return previous;
    };
    return { towards: within(predecessors), from: within(successors) };
  };

  return asked.map((index) => {
    const { from, to } = numbered[index]!;
    if (component[from] !== component[to]) return undefined;
    let found = pathsOfComponent.get(component[from]!);
    if (!found) {
      found = { turn: from, paths: pathsThrough(from) };
      pathsOfComponent.set(component[from]!, found);
    }
    const { turn, paths } = found;
    const out = towardsTurn(to, turn, paths.towards);
    const back = towardsTurn(from, turn, paths.from);
    const shown = [
      from,
      ...(out.whole ? out.nodes : [...out.nodes.slice(0, shownPerHalf - 2), null, turn]),
      ...(back.whole ? back.nodes.reverse().slice(1) : [null, ...back.nodes.slice(0, shownPerHalf - 2).reverse()]),
    ];
    return shown.map((node) => (node === null ? elided : names[node]!));
  });
}

/**
 * The nodes from `start` by the `next` links up to `turn` (included): all of them when there are at
 * most `shownPerHalf`, else only that many from `start`, so that a long cycle costs no more than a short one.
 */
function towardsTurn(start: number, turn: number, next: ReadonlyMap<number, number>) {
  const nodes = [start];
  let node = start;
  while (node !== turn && nodes.length < shownPerHalf) {
    node = next.get(node)!;
    nodes.push(node);
  }
  return { nodes, whole: node === turn };
}
