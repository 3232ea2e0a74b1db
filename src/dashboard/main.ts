import { api } from "./api";
import type { ApiProblem } from "./api-client";
import { collectorsPage } from "./collectors-page";
import { h, setText } from "./dom";
import { metricPage } from "./metric-page";
import { modelPage } from "./model-page";
import { overviewPage } from "./overview-page";
import type { Page, PageContext } from "./page";
import { asProblem, clearProblem, showProblem } from "./problem-display";
import { navigationEntry, parseRoute, type Route } from "./router";
import { rulesPage } from "./rules-page";
import { selectorObserverPage } from "./selector-observer-page";
import { forgetToken, rememberToken, storedToken } from "./session";
import { tokenForm } from "./token-form";

/*
 * The dashboard's frame: the token, once; the page of the location's hash; its refresh every few
 * seconds, one at a time; and the places where problems and the outcomes of actions show.
 */

const refreshInterval = 5_000;
const announcementShown = 6_000;

function byId<Kind extends HTMLElement>(id: string): Kind {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no element #${id}.`);
  return element as Kind;
}

const main = byId<HTMLElement>("main");
const alert = byId<HTMLElement>("alert");
const announcer = byId<HTMLElement>("announcer");
const accessNote = byId<HTMLElement>("access");
const forgetButton = byId<HTMLButtonElement>("forget-token");

let page: Page | undefined;
/** Counts the pages shown: a refresh timer of a page left behind does nothing. */
let generation = 0;
let timer: number | undefined;
let running: Promise<void> | undefined;
let queued: Promise<void> | undefined;
/** Whether the problem on show came from a refresh, which the next successful refresh takes away. */
let problemFromRefresh = false;
let announcementTimer: number | undefined;

function report(error: unknown, fromRefresh = false): void {
  const problem = asProblem(error);
  if (problem.refusesToken) {
    askForToken(problem);
    return;
  }
  showProblem(alert, problem);
  problemFromRefresh = fromRefresh;
}

function announce(message: string): void {
  setText(announcer, message);
  window.clearTimeout(announcementTimer);
  announcementTimer = window.setTimeout(() => setText(announcer, ""), announcementShown);
}

async function refreshOnce(target: Page): Promise<void> {
  try {
    await target.refresh();
    if (problemFromRefresh && target === page) {
      clearProblem(alert);
      problemFromRefresh = false;
    }
  } catch (error) {
    if (target === page) report(error, true);
  }
}

/** Refreshes the page now, or right after the refresh under way, so that an action's outcome is never overtaken by older data. */
function refresh(): Promise<void> {
  const target = page;
  if (!target) return Promise.resolve();
  if (!running) {
    running = refreshOnce(target).finally(() => {
      running = undefined;
    });
    return running;
  }
  queued ??= running.then(() => {
    queued = undefined;
    return refresh();
  });
  return queued;
}

function scheduleRefresh(shown: number): void {
  window.clearTimeout(timer);
  timer = window.setTimeout(async () => {
    if (shown !== generation) return;
    // A tab in the background asks nothing of the service.
    if (!document.hidden) await refresh();
    if (shown === generation) scheduleRefresh(shown);
  }, refreshInterval);
}

const context: PageContext = { refresh, report, announce };

function unknownPage(): Page {
  const element = h(
    "div",
    { class: "page" },
    h("header", { class: "page-header" }, h("h1", { tabindex: -1 }, "No such page")),
    h("p", {}, "This address shows nothing. ", h("a", { href: "#/" }, "Back to the overview"), "."),
  );
  return { title: "No such page", element, refresh: async () => {} };
}

function pageOf(route: Route): Page {
  switch (route.page) {
    case "overview":
      return overviewPage(context);
    case "metric":
      return metricPage(route.metric, context);
    case "observer":
      return selectorObserverPage(route.observer, context);
    case "model":
      return modelPage();
    case "rules":
      return rulesPage(context);
    case "collectors":
      return collectorsPage();
    case "unknown":
      return unknownPage();
  }
}

function leavePage(): void {
  page?.dispose?.();
  page = undefined;
  generation += 1;
  window.clearTimeout(timer);
  clearProblem(alert);
  problemFromRefresh = false;
}

function markNavigation(route: Route | undefined): void {
  const entry = route ? navigationEntry(route) : undefined;
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".main-nav a")) {
    if (link.dataset.entry === entry) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function show(route: Route, byNavigation: boolean): void {
  leavePage();
  const shown = generation;
  page = pageOf(route);
  main.replaceChildren(page.element);
  document.title = `${page.title} · tower-edge`;
  markNavigation(route);
  // Keyboard and screen reader users land on the new page's heading, not back at the top.
  if (byNavigation) page.element.querySelector<HTMLElement>("h1")?.focus();
  void refresh().then(() => {
    if (shown === generation) scheduleRefresh(shown);
  });
}

let signedIn = false;

function enter(withToken: boolean): void {
  signedIn = true;
  setText(accessNote, withToken ? "Signed in with a token" : "Open: no token needed");
  forgetButton.hidden = !withToken;
  show(parseRoute(location.hash), false);
}

function askForToken(problem?: ApiProblem): void {
  signedIn = false;
  leavePage();
  forgetToken();
  forgetButton.hidden = true;
  setText(accessNote, "");
  markNavigation(undefined);
  const form = tokenForm(problem, async (token) => {
    await api.metricNames({ token });
    rememberToken(token);
    enter(true);
  });
  main.replaceChildren(form);
  document.title = "Sign in · tower-edge";
  form.querySelector("input")?.focus();
}

/** The token the session has, or none: the service answers whether it needs one (401) or not. */
async function start(): Promise<void> {
  window.addEventListener("hashchange", () => {
    if (signedIn) show(parseRoute(location.hash), true);
  });
  forgetButton.addEventListener("click", () => askForToken());
  // A tab brought back to the front shows what changed while it asked nothing of the service.
  document.addEventListener("visibilitychange", () => {
    if (signedIn && !document.hidden) void refresh();
  });
  const token = storedToken();
  try {
    await api.metricNames({ token: token ?? null });
  } catch (error) {
    const problem = asProblem(error);
    if (problem.refusesToken) {
      askForToken(token ? problem : undefined);
      return;
    }
    // Not a question of tokens (the service is unreachable or not configured): the pages say why.
    report(problem);
  }
  enter(token !== undefined);
}

void start();
