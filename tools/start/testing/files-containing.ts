import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The files under `directory` (symbolic links not followed) changed since `sinceMs` that contain
 * `text`. Other processes' files that cannot be read, or vanish meanwhile, are skipped.
 */
export function filesContaining(directory: string, text: string, sinceMs: number): string[] {
  const found: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return found;
  }
  for (const name of entries) {
    const path = join(directory, name);
    try {
      const stat = lstatSync(path);
      if (stat.isDirectory()) found.push(...filesContaining(path, text, sinceMs));
      else if (stat.isFile() && stat.mtimeMs >= sinceMs && readFileSync(path).includes(text)) found.push(path);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
