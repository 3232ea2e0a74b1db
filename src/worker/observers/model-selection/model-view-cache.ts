import { knowledgeBase } from "../../model/knowledge-base";
import type { ModelDocument } from "../../model/schema";
import { ModelView } from "./model-view";
import { compileResourceSelection, type ResourceMatcher } from "./resource-selection";
import type { ResourceSelection } from "./resource-selection-schema";

/** How long a model is used before the knowledge base is asked whether it changed. */
export const MODEL_RECHECK_MS = 5_000;

/** The model as of one version of the knowledge base. */
export interface CurrentModel {
  version: string;
  view: ModelView;
}

/** What the cache reads of the knowledge base (its stub). */
export interface ModelSource {
  modelVersion(): Promise<string>;
  readModel(): Promise<ModelDocument>;
}

/**
 * The model kept by an isolate: at most `MODEL_RECHECK_MS` old, so that deliveries read no Durable
 * Object per batch; a check asks only for the version, and the model is read again only when it changed.
 */
export class ModelViewCache {
  private current: CurrentModel | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<CurrentModel> | undefined;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** The model, checked against `source()` when the last check is `MODEL_RECHECK_MS` old; concurrent callers share one check. */
  model(source: () => ModelSource): Promise<CurrentModel> {
    if (this.current !== undefined && this.now() - this.checkedAt < MODEL_RECHECK_MS) {
      return Promise.resolve(this.current);
    }
    this.checking ??= this.check(source()).finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async check(source: ModelSource): Promise<CurrentModel> {
    const startedAt = this.now();
    try {
      // The version first: the model read after it is at least that new, so a change in between is
      // seen at the next check rather than missed.
      const version = await source.modelVersion();
      if (version !== this.current?.version) {
        this.current = { version, view: new ModelView(await source.readModel()) };
      }
    } catch (error) {
      if (this.current === undefined) throw error;
      // The model is off the data path: deliveries go on with the one they have until the next check.
      console.error("the model could not be checked:", error instanceof Error ? error.message : error);
    }
    this.checkedAt = startedAt;
    return this.current;
  }
}

/** The compiled selections of each model, by selection; dropped with the model. */
const compiledOf = new WeakMap<ModelView, Map<string, ResourceMatcher>>();

/** The selection's fields in a fixed order, so that the same selection has the same key however its JSON was ordered. */
function selectionKey({ class: clazz, type, ids, within }: ResourceSelection): string {
  return JSON.stringify([clazz, type, ids, within]);
}

/** The selection compiled over `model`: once per model version and selection in an isolate. */
export function resourceMatcher(model: CurrentModel, selection: ResourceSelection): ResourceMatcher {
  let compiled = compiledOf.get(model.view);
  if (compiled === undefined) {
    compiled = new Map();
    compiledOf.set(model.view, compiled);
  }
  const key = selectionKey(selection);
  let matcher = compiled.get(key);
  if (matcher === undefined) {
    matcher = compileResourceSelection(selection, model.view);
    compiled.set(key, matcher);
  }
  return matcher;
}

const isolateModel = new ModelViewCache();

/** The model as this isolate knows it: at most `MODEL_RECHECK_MS` (plus one request) behind the knowledge base. */
export function currentModel(env: Env): Promise<CurrentModel> {
  return isolateModel.model(() => knowledgeBase(env));
}
