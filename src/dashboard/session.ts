/*
 * The admin token, kept in the browser tab's session only: it survives reloads, not the tab. A
 * browser that refuses storage (some private modes) keeps it in memory for this page instead.
 */

const key = "tower-edge.admin-token";
let inMemory: string | undefined;

export function storedToken(): string | undefined {
  try {
    return sessionStorage.getItem(key) ?? undefined;
  } catch {
    return inMemory;
  }
}

export function rememberToken(token: string): void {
  inMemory = token;
  try {
    sessionStorage.setItem(key, token);
  } catch {
    // Kept in memory above.
  }
}

export function forgetToken(): void {
  inMemory = undefined;
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing was stored.
  }
}
