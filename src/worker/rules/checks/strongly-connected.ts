/**
 * The strongly connected components of a directed graph of nodes 0…n-1 given by their successors
 * (Tarjan's algorithm): two nodes share a component when each reaches the other. Iterative, in time
 * linear in the nodes and edges, so that a chain of thousands of rules neither overflows the stack
 * nor costs more than its length. Returns each node's component number.
 */
export function stronglyConnected(successors: readonly (readonly number[])[]): number[] {
  const count = successors.length;
  // Typed arrays: an Array of this many holes would be a slow dictionary of elements.
  const order = new Int32Array(count).fill(-1);
  const lowest = new Int32Array(count);
  const component = new Int32Array(count).fill(-1);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  let visited = 0;
  let components = 0;

  const visit = (node: number) => {
    order[node] = visited;
    lowest[node] = visited;
    visited += 1;
    stack.push(node);
    onStack[node] = 1;
  };

  for (let start = 0; start < count; start++) {
    if (order[start] !== -1) continue;
    visit(start);
    // Each frame: a node on the current path, and how many of its successors were looked at.
    const frames: [number, number][] = [[start, 0]];
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      const node = frame[0];
      const looked = frame[1];
      const next = successors[node]![looked];
      if (next !== undefined) {
        frame[1] = looked + 1;
        if (order[next] === -1) {
          visit(next);
          frames.push([next, 0]);
        } else if (onStack[next]) {
          lowest[node] = Math.min(lowest[node]!, order[next]!);
        }
        continue;
      }
      frames.pop();
      const parent = frames.at(-1)?.[0];
      if (parent !== undefined) lowest[parent] = Math.min(lowest[parent]!, lowest[node]!);
      if (lowest[node] !== order[node]) continue;
      let member: number;
      do {
        member = stack.pop()!;
        onStack[member] = 0;
        component[member] = components;
      } while (member !== node);
      components += 1;
    }
  }
  return Array.from(component);
}
