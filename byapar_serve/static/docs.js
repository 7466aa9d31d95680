"use strict";
// The /docs page: the server's OpenAPI description drawn as a plain list of routes, with each
// request body's fields and each answer's status. No script or style comes from elsewhere.

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function resolve(spec, schema) {
  let s = schema || {};
  for (let i = 0; s.$ref && i < 10; i++) s = spec.components.schemas[s.$ref.split("/").pop()] || {};
  return s;
}

function typeOf(spec, schema) {
  const s = schema || {};
  if (s.$ref) return s.$ref.split("/").pop();
  if (s.anyOf) return s.anyOf.map((x) => typeOf(spec, x)).join(" or ");
  if (s.type === "array") return `list of ${typeOf(spec, s.items)}`;
  return s.type || "any";
}

function fieldTable(spec, schema) {
  const s = resolve(spec, schema);
  if (!s.properties) return null;
  const table = el("table");
  const head = el("tr");
  for (const h of ["field", "type", "what it is"]) head.appendChild(el("th", null, h));
  table.appendChild(head);
  const required = new Set(s.required || []);
  for (const [name, prop] of Object.entries(s.properties)) {
    const tr = el("tr");
    tr.append(el("td", null, name + (required.has(name) ? " (required)" : "")),
      el("td", "type", typeOf(spec, prop)), el("td", null, prop.description || ""));
    table.appendChild(tr);
  }
  return table;
}

function route(spec, path, method, op) {
  const box = el("div", "route");
  const head = el("div");
  head.append(el("span", "method", method.toUpperCase()), el("span", "path", path));
  box.appendChild(head);
  if (op.summary) box.appendChild(el("strong", null, op.summary));
  if (op.description) box.appendChild(el("div", "desc", op.description));
  const body = op.requestBody && op.requestBody.content["application/json"];
  if (body) {
    box.appendChild(el("div", null, `Request body: ${typeOf(spec, body.schema)}`));
    const t = fieldTable(spec, body.schema);
    if (t) box.appendChild(t);
  }
  const answers = el("div");
  for (const [status, r] of Object.entries(op.responses || {})) {
    answers.appendChild(el("span", "status", `${status} ${r.description || ""}`));
  }
  box.appendChild(answers);
  return box;
}

async function main() {
  const box = document.getElementById("routes");
  try {
    const spec = await (await fetch("/openapi.json")).json();
    box.replaceChildren();
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(ops)) box.appendChild(route(spec, path, method, op));
    }
  } catch (err) {
    box.textContent = "The API description could not be read from this server.";
  }
}

main();
