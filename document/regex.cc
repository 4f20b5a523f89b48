#include "document/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace {

// MongoDB's limit on a pattern's length (src/mongo/util/pcre.cpp
// kMaxPatternLength).
constexpr size_t kMaxPatternLength = 32764;

// PCRE2's defaults, which MongoDB 8.0 does not override; stated here so the
// bound on the work per document does not depend on how libpcre2 was built.
constexpr uint32_t kMatchLimit = 10000000;
constexpr uint32_t kDepthLimit = 10000000;
// The heap used for backtracking, in KiB. PCRE2's default is 20,000,000 KiB
// (20 GB); ttldb caps it at 64 MB so a pathological pattern cannot exhaust
// memory (a deliberate difference that only affects such patterns).
constexpr uint32_t kHeapLimitKiB = 64 * 1024;

std::string Pcre2Message(int error) {
  PCRE2_UCHAR buf[256];
  const int len = pcre2_get_error_message(error, buf, sizeof(buf));
  if (len < 0) return absl::StrCat("PCRE2 error ", error);
  return std::string(reinterpret_cast<const char*>(buf), len);
}

struct MatchDataFree {
  void operator()(pcre2_match_data* m) const { pcre2_match_data_free(m); }
};

// One ovector pair is enough for a yes/no search (pcre2_match returns 0,
// still a match, when the pattern has more groups). One per thread, freed
// when the thread ends.
pcre2_match_data* ThreadMatchData() {
  thread_local std::unique_ptr<pcre2_match_data, MatchDataFree> data(
      pcre2_match_data_create(1, nullptr));
  return data.get();
}

}  // namespace

struct CompiledRegex::Code {
  pcre2_code* code = nullptr;
  pcre2_match_context* match_context = nullptr;
  ~Code() {
    pcre2_match_context_free(match_context);
    pcre2_code_free(code);
  }
};

CompiledRegex::CompiledRegex(std::unique_ptr<Code> code)
    : code_(std::move(code)) {}

CompiledRegex::~CompiledRegex() = default;

absl::StatusOr<std::shared_ptr<const CompiledRegex>> CompiledRegex::Compile(
    absl::string_view pattern, absl::string_view options) {
  // src/mongo/util/pcre_util.cpp flagsToOptions.
  uint32_t flags = PCRE2_UTF;
  for (char o : options) {
    switch (o) {
      case 'i':
        flags |= PCRE2_CASELESS;
        break;
      case 'm':
        flags |= PCRE2_MULTILINE;
        break;
      case 's':
        flags |= PCRE2_DOTALL;
        break;
      case 'x':
        flags |= PCRE2_EXTENDED;
        break;
      case 'u':
        break;
      default:
        // MongoDB's message really starts with a space: the matcher passes
        // an empty opName to "{} invalid flag in regex options: {}".
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidRegexFlag,
                          absl::StrCat(" invalid flag in regex options: ",
                                       std::string(1, o)));
    }
  }
  // src/mongo/db/matcher/expression_leaf.cpp RegexMatchExpression.
  if (pattern.find('\0') != absl::string_view::npos) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kBadValue,
        "Regular expression cannot contain an embedded null byte");
  }
  auto code = std::make_unique<Code>();
  pcre2_compile_context* cc = pcre2_compile_context_create(nullptr);
  pcre2_set_max_pattern_length(cc, kMaxPatternLength);
  int error = 0;
  PCRE2_SIZE offset = 0;
  code->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                             pattern.size(), flags, &error, &offset, cc);
  pcre2_compile_context_free(cc);
  if (code->code == nullptr) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, 51091,
        absl::StrCat("Regular expression is invalid: ", Pcre2Message(error)));
  }
  code->match_context = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(code->match_context, kMatchLimit);
  pcre2_set_depth_limit(code->match_context, kDepthLimit);
  pcre2_set_heap_limit(code->match_context, kHeapLimitKiB);
  return std::shared_ptr<const CompiledRegex>(
      new CompiledRegex(std::move(code)));
}

bool CompiledRegex::Search(absl::string_view text) const {
  // No PCRE2_NO_UTF_CHECK, as in MongoDB: invalid UTF-8 is an error, which
  // counts as no match; so does hitting the match, depth or heap limit.
  const int rc =
      pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(text.data()),
                  text.size(), 0, 0, ThreadMatchData(), code_->match_context);
  return rc >= 0;
}

int CompiledRegex::CaptureCount() const {
  uint32_t n = 0;
  pcre2_pattern_info(code_->code, PCRE2_INFO_CAPTURECOUNT, &n);
  return static_cast<int>(n);
}

std::optional<CompiledRegex::Match> CompiledRegex::Find(
    absl::string_view text, size_t start, bool not_empty_at_start) const {
  std::unique_ptr<pcre2_match_data, MatchDataFree> data(
      pcre2_match_data_create_from_pattern(code_->code, nullptr));
  const uint32_t options = not_empty_at_start ? PCRE2_NOTEMPTY_ATSTART : 0;
  const int rc = pcre2_match(
      code_->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(),
      start, options, data.get(), code_->match_context);
  if (rc < 0) return std::nullopt;
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data.get());
  Match m;
  m.begin = ov[0];
  m.end = ov[1];
  const int groups = CaptureCount();
  for (int g = 1; g <= groups; ++g) {
    if (g < rc && ov[2 * g] != PCRE2_UNSET) {
      m.groups.emplace_back(std::make_pair(ov[2 * g], ov[2 * g + 1]));
    } else {
      m.groups.emplace_back(std::nullopt);
    }
  }
  return m;
}

}  // namespace ttldb
