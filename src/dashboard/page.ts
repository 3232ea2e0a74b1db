/** What a page may ask of the dashboard around it. */
export interface PageContext {
  /** Reads the page's data again now, after an action changed them. */
  refresh(): Promise<void>;
  /** Shows why an action failed. */
  report(error: unknown): void;
  /** Tells, politely, what an action did. */
  announce(message: string): void;
}

/** A page: built once, then refreshed in place. */
export interface Page {
  readonly title: string;
  readonly element: HTMLElement;
  refresh(): Promise<void>;
  /** Called when the page is left, e.g. to stop watching its size. */
  dispose?(): void;
}
