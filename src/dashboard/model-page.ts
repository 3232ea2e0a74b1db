import { api } from "./api";
import type { Model } from "./api-types";
import { h } from "./dom";
import { pageHeader, section } from "./layout";
import { modelPicture } from "./model-picture";
import type { Page } from "./page";
import { table } from "./table";

interface ResourceRow {
  id: string;
  clazz: string;
  type: string;
  references: string;
}

/** Every resource of the model with its references in words, in the columns' order. */
function resourceRows(model: Model): ResourceRow[] {
  const list = (ids: readonly string[]) => (ids.length === 0 ? "none" : ids.join(", "));
  return [
    ...model.cloudProviders.map((provider) => ({
      id: provider.id,
      clazz: "CloudProvider",
      type: provider.type,
      references: "—",
    })),
    ...model.vMs.map((vm) => ({
      id: vm.id,
      clazz: "VM",
      type: `${vm.type} (${vm.numberOfCPUs} ${vm.numberOfCPUs === 1 ? "CPU" : "CPUs"})`,
      references: `runs on ${vm.cloudProvider}`,
    })),
    ...model.internalComponents.map((component) => ({
      id: component.id,
      clazz: "InternalComponent",
      type: component.type,
      references: `requires ${list(component.requiredComponents)}; provides ${list(component.providedMethods)}`,
    })),
    ...model.methods.map((method) => ({ id: method.id, clazz: "Method", type: method.type, references: "—" })),
  ];
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
        "The monitored system: cloud providers, VMs, internal components and methods.",
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
