// What a pipeline reads besides its input, for views (engine/views.cc):
// the cycle check of a view's definition and the resolution of every view
// an aggregate reads before it runs. Internal.
#ifndef TTLDB_ENGINE_VIEW_PIPELINE_H_
#define TTLDB_ENGINE_VIEW_PIPELINE_H_

#include <set>
#include <string>

#include "ttldb/value.h"

namespace ttldb {

// Adds to *out the collections (or views) `stages` reads besides its input,
// as MongoDB's LiteParsedPipeline::getInvolvedNamespaces: the `from` of
// $lookup and $graphLookup, $unionWith's collection, and what their
// sub-pipelines and $facet's read (32 levels deep at most). Stages of any
// other shape are skipped: the pipeline's parser reports them.
void InvolvedCollections(const Value& stages, std::set<std::string>* out);

}  // namespace ttldb

#endif  // TTLDB_ENGINE_VIEW_PIPELINE_H_
