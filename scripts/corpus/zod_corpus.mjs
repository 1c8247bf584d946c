// Writes the zod 4 part of the strict-schema corpus: for each schema,
// tool-openai/tests/corpus/zod/<name>.json with
// {"generator", "model", "schema": z.toJSONSchema(schema), "accept", "refuse"}.
// `accept` documents are checked here with zod itself (`parse` must
// succeed) and list every key (null for optional ones, as strict mode makes
// the model send them; zod's optional fields are made nullable for that);
// `refuse` documents carry the reason in `why`. Run through
// scripts/corpus/generate.sh.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import * as z from "zod";

const require = createRequire(import.meta.url);
const version = require("zod/package.json").version;
const out = process.argv[2];

// A document without the null values of the keys named in `optional`, at
// any depth: zod reads null for an optional key as a mistake, while strict
// mode sends null.
function withoutNulls(doc, optional) {
  if (Array.isArray(doc)) return doc.map((d) => withoutNulls(d, optional));
  if (doc === null || typeof doc !== "object") return doc;
  return Object.fromEntries(
    Object.entries(doc)
      .filter(([k, v]) => !(v === null && optional.includes(k)))
      .map(([k, v]) => [k, withoutNulls(v, optional)]),
  );
}

function fixture(name, schema, accept, refuse, optional = []) {
  for (const doc of accept) {
    schema.parse(withoutNulls(doc, optional));
  }
  const file = path.join(out, "zod", `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const doc = {
    generator: `zod ${version}`,
    model: name,
    schema: z.toJSONSchema(schema),
    accept,
    refuse,
  };
  fs.writeFileSync(file, JSON.stringify(doc, null, 2) + "\n");
}

const Address = z.object({
  street: z.string().min(1),
  city: z.string(),
  postcode: z.string().regex(/^[0-9]{5}$/),
  country: z.string().default("DE"),
});

const LineItem = z.object({
  sku: z.string().min(1).max(32),
  quantity: z.number().int().gte(1).lte(100),
  unit_price: z.number().positive(),
});

const Order = z
  .object({
    order_id: z.uuid(),
    placed_at: z.iso.datetime(),
    deliver_on: z.iso.date().optional(),
    status: z.enum(["draft", "placed", "shipped"]),
    shipping: Address,
    billing: Address.nullable(),
    items: z.array(LineItem).min(1).max(10),
    note: z.string().describe("Free text for the courier.").optional(),
    email: z.email().optional(),
  })
  .describe("An order with nested objects, optional and default fields.");

const address = { street: "Hauptstr. 1", city: "Berlin", postcode: "10115", country: "DE" };
const order = {
  order_id: "12345678-1234-4678-9234-567812345678",
  placed_at: "2026-11-30T12:00:00Z",
  deliver_on: null,
  status: "placed",
  shipping: address,
  billing: null,
  items: [{ sku: "A-1", quantity: 2, unit_price: 9.99 }],
  note: null,
  email: null,
};
fixture(
  "order",
  Order,
  [order, { ...order, deliver_on: "2026-12-24", billing: address, note: "ring twice", email: "a@example.com" }],
  [
    { why: "an unknown status", args: { ...order, status: "lost" } },
    { why: "quantity 0", args: { ...order, items: [{ sku: "A", quantity: 0, unit_price: 1 }] } },
    { why: "a fractional quantity", args: { ...order, items: [{ sku: "A", quantity: 1.5, unit_price: 1 }] } },
    { why: "no items", args: { ...order, items: [] } },
    { why: "a postcode that does not match", args: { ...order, shipping: { ...address, postcode: "1011" } } },
    { why: "an extra key", args: { ...order, coupon: "X" } },
    { why: "billing left out", args: Object.fromEntries(Object.entries(order).filter(([k]) => k !== "billing")) },
  ],
  ["deliver_on", "note", "email"],
);

const Base = z.object({ id: z.string(), created: z.iso.datetime() });
const Extra = z.object({ label: z.string(), weight: z.number().nonnegative().optional() });
const Labelled = z.object({ item: z.intersection(Base, Extra), count: z.int().gte(0) });
const labelled = { item: { id: "x", created: "2026-01-01T00:00:00Z", label: "L", weight: null }, count: 1 };
fixture(
  "intersection",
  Labelled,
  [labelled],
  [
    { why: "the label of the second part is missing", args: { item: { id: "x", created: "2026-01-01T00:00:00Z", weight: null }, count: 1 } },
    { why: "a negative weight", args: { item: { ...labelled.item, weight: -1 }, count: 1 } },
  ],
  ["weight"],
);

const Cat = z.object({ kind: z.literal("cat"), lives: z.int().min(0).max(9) });
const Bird = z.object({ kind: z.literal("bird"), can_fly: z.boolean() });
const Adoption = z.object({
  animal: z.discriminatedUnion("kind", [Cat, Bird]),
  mood: z.union([z.literal("happy"), z.literal("sad"), z.number()]),
  color: z.enum(["red", "green"]).default("red"),
});
fixture(
  "discriminated_union",
  Adoption,
  [
    { animal: { kind: "cat", lives: 9 }, mood: "happy", color: "red" },
    { animal: { kind: "bird", can_fly: false }, mood: 3, color: "green" },
  ],
  [
    { why: "an unknown kind", args: { animal: { kind: "dog", lives: 1 }, mood: "happy", color: "red" } },
    { why: "an unknown mood", args: { animal: { kind: "cat", lives: 1 }, mood: "bored", color: "red" } },
    { why: "ten lives", args: { animal: { kind: "cat", lives: 10 }, mood: "sad", color: "red" } },
  ],
);

const Node = z.object({
  label: z.string(),
  get children() {
    return z.array(Node);
  },
});
const Tree = z.object({ root: Node, depth: z.int() });
fixture(
  "recursive_tree",
  Tree,
  [{ root: { label: "a", children: [{ label: "b", children: [] }] }, depth: 2 }],
  [{ why: "a child without a label", args: { root: { label: "a", children: [{ children: [] }] }, depth: 1 } }],
);
fixture(
  "recursive_root",
  Node,
  [{ label: "a", children: [{ label: "b", children: [] }] }],
  [{ why: "children is a string", args: { label: "a", children: "none" } }],
);

const Constrained = z.strictObject({
  code: z.string().regex(/^[A-Z]{3}-\d{4}$/),
  name: z.string().min(2).max(40),
  percent: z.number().min(0).max(100),
  count: z.int().gt(0).lt(1000),
  step: z.int().multipleOf(5),
  tags: z.array(z.string()).min(1).max(3),
  amount: z.string().regex(/^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$/),
  day: z.iso.date(),
  at: z.iso.time(),
  id: z.uuid(),
  host: z.ipv4(),
});
const constrained = {
  code: "ABC-1234",
  name: "Al",
  percent: 12.5,
  count: 3,
  step: 10,
  tags: ["x"],
  amount: "12.50",
  day: "2026-01-02",
  at: "10:30:00",
  id: "12345678-1234-4678-9234-567812345678",
  host: "10.0.0.1",
};
fixture(
  "constrained",
  Constrained,
  [constrained],
  [
    { why: "code does not match", args: { ...constrained, code: "abc-1234" } },
    { why: "percent above 100", args: { ...constrained, percent: 101 } },
    { why: "count 1000 is not below 1000", args: { ...constrained, count: 1000 } },
    { why: "step 7 is no multiple of 5", args: { ...constrained, step: 7 } },
    { why: "no tags", args: { ...constrained, tags: [] } },
    { why: "not a date", args: { ...constrained, day: "2026-02-31x" } },
    { why: "not an IPv4 address", args: { ...constrained, host: "10.0.0" } },
  ],
);

fixture("no_arguments", z.object({}).strict(), [{}], [{ why: "an argument", args: { x: 1 } }]);
