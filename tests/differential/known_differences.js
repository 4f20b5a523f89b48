// Where mingo 7.2.7 is known to answer differently from MongoDB 8.0, so
// the differential test skips those cases instead of copying mingo's
// answers. Each entry: a name, why (with the MongoDB source or manual page
// that decides it), and `applies(pipeline, docs)` picking the cases it
// covers. ttldb follows MongoDB in all of them (tests/aggregate_test.cc
// pins MongoDB's answer where one is cited).
"use strict";

function stagesOf(pipeline) {
  const out = [];
  const walk = (p) => {
    for (const s of p) {
      const name = Object.keys(s)[0];
      out.push({ name, spec: s[name] });
      if (name === "$facet") for (const k of Object.keys(s[name])) walk(s[name][k]);
    }
  };
  walk(pipeline);
  return out;
}

module.exports = [
  {
    name: "count-of-nothing",
    why:
      "$count is $group {_id: null, n: {$sum: 1}} + $project " +
      "(document_source_count.cpp), and $group over no documents outputs " +
      "nothing, so $count of an empty input returns no document; mingo " +
      "returns {n: 0}.",
    applies: (pipeline) => stagesOf(pipeline).some((s) => s.name === "$count"),
  },
  {
    name: "dotted-computed-field-over-missing-parent",
    why:
      "{$addFields: {'d.y': <missing>}} on a document without d gives d: {} " +
      "(projection_node.cpp applyExpressionsToValue replaces a missing or " +
      "scalar parent by a document of the computed fields, here none); " +
      "mingo leaves d out.",
    applies: (pipeline) =>
      stagesOf(pipeline).some(
        (s) => (s.name === "$addFields" || s.name === "$set") && "d.y" in s.spec
      ),
  },
  {
    name: "bucket-bounds-and-empty-buckets",
    why:
      "MongoDB's $bucket puts a value v in [lower, upper) (lower bound " +
      "inclusive, upper exclusive) and outputs only buckets that hold at " +
      "least one document (manual: $bucket; document_source_bucket.cpp " +
      "desugars to $group on a $switch of $gte/$lt branches); mingo 7.2.7 " +
      "puts a value equal to a boundary into the bucket below it and " +
      "outputs empty buckets.",
    applies: (pipeline) => stagesOf(pipeline).some((s) => s.name === "$bucket"),
  },
  {
    name: "push-addToSet-of-missing",
    why:
      "$push and $addToSet skip a missing value (accumulator_push.cpp, " +
      "accumulator_add_to_set.cpp processInternal: `if (!input.missing())`); " +
      "mingo adds null.",
    applies: (pipeline) =>
      stagesOf(pipeline).some(
        (s) => s.name === "$group" &&
          Object.values(s.spec).some(
            (v) => v && typeof v === "object" && ("$addToSet" in v || "$push" in v))
      ),
  },
  {
    name: "sort-mixed-types-and-arrays",
    why:
      "MongoDB sorts an array field by its smallest element ascending " +
      "(largest descending) and orders types by the BSON type order " +
      "(src/mongo/db/index/sort_key_generator.cpp, bsontypes.h " +
      "canonicalizeBSONType); mingo 7.2.7 orders {a: [1, 4]} after {a: 1} " +
      "when sorting {a: 1} (seed 1, case 670).",
    applies: (pipeline) =>
      stagesOf(pipeline).some(
        (s) => s.name === "$sort" && Object.keys(s.spec).some((k) => k === "a" || k === "arr")
      ),
  },
  {
    name: "group-min-max-mixed-types",
    why:
      "$min/$max compare across types in BSON order, ignoring null and " +
      "missing (accumulator_min_max.cpp): an array is above every number, " +
      "so $min of 3, [1, 4], 1 is 1; mingo 7.2.7 answers [1, 4] (seed 1, " +
      "case 122).",
    applies: (pipeline) =>
      stagesOf(pipeline).some(
        (s) =>
          s.name === "$group" &&
          Object.values(s.spec).some(
            (v) => v && typeof v === "object" && ("$min" in v || "$max" in v) &&
              (v.$min === "$a" || v.$max === "$a")
          )
      ),
  },
];
