// MongoDB's total order over values.
#ifndef TTLDB_DOCUMENT_COMPARE_H_
#define TTLDB_DOCUMENT_COMPARE_H_

#include "ttldb/value.h"

namespace ttldb {

// Compares two values in MongoDB's order: first by CanonicalTypeOrder, then
// within a type. Numbers (int32, int64, double, decimal) compare by value,
// exactly (int64 vs double without rounding, decimal vs double as MongoDB's
// compare_numbers.h does); NaN (double or decimal) sorts below every other
// number and equals every NaN; -0 equals 0. Strings compare bytewise. Objects
// compare field by field (type order, then name, then value), arrays element by
// element; the shorter prefix sorts first. Returns <0, 0 or >0.
int CompareValues(const Value& a, const Value& b);

inline bool ValuesEqual(const Value& a, const Value& b) {
  return CompareValues(a, b) == 0;
}

// True when `a` and `b` are the same value in every respect: the same type,
// the same bits (1 and 1.0 differ, as do 0.0 and -0.0, and 1.0 and 1.00 as
// decimals), the same field names in the same order. Whatever is computed
// from a value alone (index keys, its serialized form) is then the same.
bool IdenticalValues(const Value& a, const Value& b);

// IdenticalValues, except that doubles compare by value: 0.0 equals -0.0 and
// every NaN equals every NaN (1 and 1.0 still differ, as do 1.0 and 1.00 as
// decimals; field order matters). An update uses it to decide whether it
// modified a document and whether it changed _id.
bool ExactEqual(const Value& a, const Value& b);

struct ValueLess {
  bool operator()(const Value& a, const Value& b) const {
    return CompareValues(a, b) < 0;
  }
};

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_COMPARE_H_
