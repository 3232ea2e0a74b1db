import { api } from "./api";
import type { Model } from "./api-types";
import { h } from "./dom";
import { pageHeader, section } from "./layout";
import { cpuCount, type EdgeKind, modelResources } from "./model-layout";
import { modelPicture } from "./model-picture";
import type { Page } from "./page";
import { table } from "./table";

interface ResourceRow {
  id: string;
  clazz: string;
  type: string;
  references: string;
}

const referenceWords: Record<EdgeKind, string> = {
  "runs-on": "runs on",
  "located-in": "located in",
  holds: "holds",
  requires: "requires",
  provides: "provides",
};

/** Every resource of the model with its references in words, in the columns' order. */
function resourceRows(model: Model): ResourceRow[] {
  const list = (ids: readonly string[]) => (ids.length === 0 ? "none" : ids.join(", "));
  return modelResources(model).map((resource) => {
    const type = resource.type ?? "—";
    return {
      id: resource.id,
      clazz: resource.clazz,
      type: resource.numberOfCPUs === undefined ? type : `${type} (${cpuCount(resource.numberOfCPUs)})`,
      references:
        resource.references.length === 0
          ? "—"
          : resource.references.map(({ kind, ids }) => `${referenceWords[kind]} ${list(ids)}`).join("; "),
    };
  });
}

/** `#/model`: the model as a picture of its resources and references, and as a table beside it. */
export function modelPage(): Page {
  const picture = modelPicture();
  const emptyNote = h("p", { class: "empty-note" }, "The model is empty: upload one with PUT /v1/resources.");
  const resources = table<ResourceRow>({
    label: "Resources",
    keyOf: (row) => row.id,
    empty: "No resources.",
    columns: [
      { label: "Resource", width: "22%", text: (row) => row.id },
      { label: "Class", width: "16%", text: (row) => row.clazz },
      { label: "Type", width: "18%", text: (row) => row.type },
      { label: "References", width: "44%", text: (row) => row.references },
    ],
  });
  const element = h(
    "div",
    { class: "page" },
    pageHeader(
      "Model",
      h(
        "p",
        { class: "page-meta muted" },
        "The monitored system: where it runs, its machines and services, its components and their methods.",
      ),
    ),
    section("Resources and references", emptyNote, picture.element),
    section("Every resource", resources.element),
  );
  return {
    title: "Model",
    element,
    async refresh() {
      const model = await api.model();
      const rows = resourceRows(model);
      emptyNote.hidden = rows.length > 0;
      picture.element.hidden = rows.length === 0;
      picture.update(model);
      resources.update(rows);
    },
  };
}
