// MongoDB's collations: a collation document ({locale: "fr", strength: 2})
// parsed and validated as MongoDB's CollatorFactoryICU::makeFromBSON does
// (src/mongo/db/query/collation/collator_factory_icu.cpp), and the ICU
// collator it describes (Debian's libicu), for comparisons and for the
// collation keys that index entries hold.
//
//   ASSIGN_OR_RETURN(std::shared_ptr<const Collator> c,
//                    Collator::Make(spec));   // nullptr: {locale: "simple"}
//   CompareValues(a, b, c.get());
//
// A null Collator* means the simple binary comparison everywhere
// (document/compare.h). A Collator is immutable after Make and safe to use
// from many threads (ICU's collators are thread-safe for const use).
#ifndef TTLDB_DOCUMENT_COLLATOR_H_
#define TTLDB_DOCUMENT_COLLATOR_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

class Collator {
 public:
  // The ICU version MongoDB reports in every resolved spec ("version"), and
  // the only one a spec may ask for: MongoDB vendors ICU 57.1.
  static constexpr absl::string_view kVersion = "57.1";

  // Parses a collation document. {locale: "simple"} (alone) gives nullptr.
  // Errors, as MongoDB's:
  //  - not an object: 14 TypeMismatch;
  //  - locale missing: 4 NoSuchKey "Missing expected field \"locale\"";
  //  - a field of the wrong type: 14 TypeMismatch "\"strength\" had the
  //    wrong type. Expected number, found string" (booleans: caseLevel,
  //    numericOrdering, normalization, backwards; strings: locale,
  //    caseFirst ("upper", "lower", "off"), alternate ("non-ignorable",
  //    "shifted"), maxVariable ("punct", "space"), version; strength an
  //    integral number 1-5);
  //  - a value out of range: 9 FailedToParse;
  //  - an unknown field, or "simple" with other fields: 9 FailedToParse;
  //  - a locale ICU does not know exactly (or "", or with a NUL): 2 BadValue;
  //  - backwards with strength 1, caseFirst other than "off" with strength
  //    1 or 2 and no caseLevel: 2 BadValue;
  //  - a version other than kVersion: 240 IncompatibleCollationVersion.
  static absl::StatusOr<std::shared_ptr<const Collator>> Make(
      const Value& spec);

  ~Collator();
  Collator(const Collator&) = delete;
  Collator& operator=(const Collator&) = delete;

  // The fully resolved spec as MongoDB reports it (listIndexes,
  // listCollections, explain): {locale, caseLevel, caseFirst, strength,
  // numericOrdering, alternate, maxVariable, normalization, backwards,
  // version}, every field present, the defaults being the locale's.
  const Value& spec() const { return spec_; }

  // <0, 0, >0 as ICU orders the two UTF-8 strings.
  int CompareStrings(absl::string_view a, absl::string_view b) const;

  // The collation key of a UTF-8 string (ICU's sort key without its
  // terminating NUL): two strings compare as their keys compare bytewise.
  std::string Key(absl::string_view s) const;

  // `v` with every string, in arrays and object values too (never field
  // names), replaced by its collation key: CompareValues (document/
  // compare.h) of two such values is the collation's comparison. This is
  // what an index with this collation stores (MongoDB's
  // CollationIndexKey::collationAwareIndexKeyAppend).
  Value KeyValue(const Value& v) const;

  // Whether the two collators order every pair of strings alike (the same
  // resolved spec).
  bool Equals(const Collator& other) const;

 private:
  struct Icu;  // the ICU collator (collator.cc)
  Collator();

  Value spec_;
  std::string spec_json_;  // ToJson(spec_), for Equals
  std::unique_ptr<Icu> icu_;
};

// MongoDB's comparison of two values under `collator` (nullptr: the simple
// binary comparison, CompareValues): strings, also inside arrays and
// objects (not field names), compare by the collation.
int CompareValues(const Value& a, const Value& b, const Collator* collator);

// `v` itself when `collator` is null, else collator->KeyValue(v).
Value CollationKeyOf(const Value& v, const Collator* collator);

// Whether two collations (nullptr: simple) are the same.
bool SameCollation(const Collator* a, const Collator* b);

// Whether `v` is or holds (in arrays and object values) a string: the
// values a collation can change the order of.
bool HoldsString(const Value& v);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_COLLATOR_H_
